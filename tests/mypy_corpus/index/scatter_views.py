"""Ops that write into a part of a tensor keep its shape: `select_scatter` / `slice_scatter` / `diagonal_scatter`
(src must have the shape of the part it fills), `masked_scatter` (the mask broadcasts), `index_reduce`,
`index_put`; and copies of views: `narrow_copy`, `expand_copy`, `as_strided`, `sum_to_size`, `split_with_sizes`,
`unsafe_split`, `unsafe_chunk`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def views(x: Tensor[B, T, D], y: Tensor[B, 5, D], row: Tensor[B, D], part: Tensor[B, 2, D], diag: Tensor[D, B]) -> None:
    reveal_type(x.select_scatter(row, 1, 0))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(torch.slice_scatter(y, part, dim=1, start=0, end=2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], D]"
    reveal_type(y.slice_scatter(part, 1, -2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], D]"
    reveal_type(torch.diagonal_scatter(x, diag, 0, 0, 1))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"  # (a diagonal of unknown length)
    reveal_type(x.slice_scatter(x))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    x.select_scatter(part, 1, 0)  # E: select_scatter: src (B, 2, D) must have the shape of the part it fills, (B, D)  [tyr-shape]
    y.slice_scatter(part, 1, 0, None, 2)  # E: slice_scatter: src (B, 2, D) must have the shape of the part it fills, (B, 3, D)  [tyr-shape]
    y.slice_scatter(part, 1, 0, 2, 0)  # E: slice_scatter: the step must be positive, not 0  [tyr-shape]
    x.select_scatter(row, 3, 0)  # E: select_scatter: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]


def writes(x: Tensor[B, T, D], mask: Tensor[T, D], keys: Tensor[B, 1, 1], src: Tensor[B, 4, D], index: Tensor[4]) -> None:
    reveal_type(x.masked_scatter(mask, torch.randn(100)))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(mask.masked_scatter(keys, x))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    mask.masked_scatter_(keys, x)  # E: masked_scatter_: shape (B, 1, 1) has more dimensions than the target (T, D)  [tyr-shape]
    reveal_type(x.index_reduce(1, index, src, "prod"))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    x.index_reduce(1, index, src[:, :3], "mean")  # E: index_reduce: the source (B, 3, D) has 3 slices along dimension 1, but there are 4 indices  [tyr-shape]
    reveal_type(x.index_put((index,), torch.tensor(0.0)))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"


def copies(x: Tensor[B, T, D], c: Tensor[B, 1, D]) -> None:
    reveal_type(x.narrow_copy(1, 0, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], D]"
    reveal_type(torch.expand_copy(c, (3, -1, x.size(1), -1)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], B, T, D]"
    reveal_type(x.as_strided((2, 3), (1, 1)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
    reveal_type(x.sum_to_size(1, x.shape[2]))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], D]"
    x.sum_to_size(x.shape[0], 2)  # E: sum_to_size: dimension 1 of the operand (2) does not broadcast with dimension 2 of the target (D); shapes (B, 2) and (B, T, D)  [tyr-shape]
    reveal_type(torch.split_with_sizes(x.narrow_copy(1, 0, 3), [1, 2], dim=1)[1])  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], D]"
    x.split_with_sizes([1, 2], dim=-1)  # E: split_with_sizes: section sizes [1, 2] add up to 3, but dimension -1 of (B, T, D) is D  [tyr-shape]
    reveal_type(torch.unsafe_chunk(c, 2, 2)[0])  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], tyr._static.DimExpr[Literal['D//2'], D]]"
    x.unsafe_split(2, 3)  # E: unsafe_split: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]
