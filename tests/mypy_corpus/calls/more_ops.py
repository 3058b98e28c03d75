"""The less common ops: products (`tensordot`, `kron`, `cross`), diagonals, `diff`, the `*stack` family and
`atleast_*d`, `quantile`, `var_mean`, selections whose length depends on values, `ravel`, `numel`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def products(x: Tensor[B, 3, 4], w: Tensor[3, 4, 5], v: Tensor[B, 3]) -> None:
    reveal_type(torch.tensordot(x, w))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5]]"
    reveal_type(torch.tensordot(x, w, dims=([1, 2], [0, 1])))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5]]"
    reveal_type(torch.kron(v, w))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], tyr._static.DimExpr[Literal['4*B'], B], Literal[15]]"
    reveal_type(torch.cross(v, v, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    reveal_type(torch.linalg.cross(v, v))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    torch.tensordot(x, w, dims=([2], [0]))  # E: tensordot: dimension 2 of the first tensor (4) does not match dimension 0 of the second tensor (3)  [tyr-shape]
    torch.cross(x, x, dim=2)  # E: cross: dimension 2 of input (B, 3, 4) must be 3, not 4  [tyr-shape]


def diagonals(v: Tensor[T], m: Tensor[B, T]) -> None:
    reveal_type(torch.diag(v))  # N: Revealed type is "torch._tensor.Tensor[T, T]"
    reveal_type(v.diag(1))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['T + 1'], T], tyr._static.DimExpr[Literal['T + 1'], T]]"
    reveal_type(torch.diag_embed(m))  # N: Revealed type is "torch._tensor.Tensor[B, T, T]"
    reveal_type(torch.diagflat(m))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T], tyr._static.DimExpr[Literal['B*T'], B, T]]"
    reveal_type(torch.diff(m))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T - 1'], T]]"
    reveal_type(m.diff(dim=1, prepend=m))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*T - 1'], T]]"
    torch.diag(m[None])  # E: diag: expects a 1-d or 2-d tensor, not (1, B, T)  [tyr-shape]
    torch.diff(m, dim=0, prepend=v)  # E: diff: prepend (T,) must have as many dims as the input (B, T)  [tyr-shape]


def stacking(a: Tensor[B, 3], b: Tensor[B, 4], v: Tensor[T]) -> None:
    reveal_type(torch.hstack([a, b]))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[7]]"
    reveal_type(torch.vstack([v, v]))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], T]"
    reveal_type(torch.dstack([a, a]))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[2]]"
    reveal_type(torch.column_stack([v, v]))  # N: Revealed type is "torch._tensor.Tensor[T, Literal[2]]"
    torch.vstack([a, b])  # E: vstack: sizes must match except in dimension 0: dimension 1 is 3 in the tensor at position 0 but 4 at position 1  [tyr-shape]


def statistics(x: Tensor[B, T]) -> None:
    reveal_type(torch.quantile(x, 0.5, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(x.quantile(torch.rand(4), dim=0, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[1], T]"
    var, mean = torch.var_mean(x, dim=1, keepdim=True)
    reveal_type(mean)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    torch.quantile(x, torch.rand(2, 2))  # E: quantile: q must be a scalar or a 1-d tensor, not (2, 2)  [tyr-shape]


def selections(x: Tensor[B, T], mask: Tensor[T]) -> None:
    reveal_type(x.masked_select(mask > 0))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    reveal_type(torch.nonzero(x))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[2]]"
    rows, cols = torch.where(x > 0)
    reveal_type(rows)  # N: Revealed type is "torch._tensor.Tensor[Any]"
    x.masked_select(x[:, :1].T)  # E: masked_select: dimension 1 of input (T) does not broadcast with dimension 1 of mask (B); shapes (B, T) and (1, B)  [tyr-shape]


def flat(x: Tensor[B, T, 8]) -> None:
    reveal_type(x.ravel())  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['8*B*T'], B, T]]"
    reveal_type(x.view(x.numel() // 8, 8))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T], Literal[8]]"
    reveal_type(x.argmax(None, True))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[1], Literal[1]]"


def sizes_written_as_list_arithmetic(q: Tensor[B, 2, T, D]) -> None:
    """Split sections and sizes built by joining and repeating lists (`[1] * 2 + [n - 2]`)."""
    a, b, c = q.split([1] * 2 + [q.shape[0] - 2], 0)
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B - 2'], B], Literal[2], T, D]"
    reveal_type(q.unsqueeze(0).expand(2, *([-1] * q.dim())))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], B, Literal[2], T, D]"
    reveal_type(q.new_zeros((3, *q.shape[1:])))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[2], T, D]"
    q.view([1] * 3 + [-1, -1])  # E: view: only one dimension can be inferred (-1), got [1, 1, 1, -1, -1]  [tyr-shape]
    reveal_type(q.dim())  # N: Revealed type is "Literal[4]"


def pieces_of_an_unknown_count(img: Tensor[B, 3, T, T], v: Tensor[D], x: Tensor["T+1", D]) -> None:
    """A cut into a number of pieces that depends on a size: each piece's shape is still known."""
    reveal_type(img.unbind(2))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[3], T], ...]"
    reveal_type(torch.stack([r for r in img.unbind(2)], dim=0))  # N: Revealed type is "torch._tensor.Tensor[Any, B, Literal[3], T]"
    reveal_type(x.chunk(3, 0)[0])  # N: Revealed type is "torch._tensor.Tensor[Any, D]"
    reveal_type(v.split(2))  # N: Revealed type is "tuple[torch._tensor.Tensor[Any], ...]"
    x.chunk(2, 2)  # E: chunk: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]


def starred_empty_sizes(v: Tensor[D]) -> None:
    reveal_type(v.reshape(*v.shape[:-1], 2, -1))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], tyr._static.DimExpr[Literal['D//2'], D]]"
    v.reshape(*v.shape[:-1], -1, -1)  # E: reshape: only one dimension can be inferred (-1), got [-1, -1]  [tyr-shape]
