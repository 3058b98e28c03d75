"""`torch.linalg` norms: `vector_norm` over `dim`, `matrix_norm` over two dims, `norm` either, with `keepdim`
(or NumPy's `axis` / `keepdims`)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def norms(x: Tensor[B, D], batch: Tensor[B, D, D], v: Tensor[B, 3]) -> None:
    reveal_type(torch.linalg.norm(x))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.linalg.norm(x, ord=2, dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.linalg.norm(x, axis=-1, keepdims=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    reveal_type(torch.linalg.norm(x, "fro"))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.linalg.norm(batch, dim=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.linalg.vector_norm(x, ord=float("inf"), dim=1, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    reveal_type(torch.linalg.matrix_norm(batch, ord="nuc"))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.linalg.cross(v, v))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    torch.linalg.norm(batch, ord=2)  # E: linalg.norm: with ord and no dim, the input must be 1-d or 2-d, not (B, D, D)  [tyr-shape]
    torch.linalg.norm(x, dim=(0, 1, 1))  # E: linalg.norm: dim must name 1 or 2 dims  [tyr-shape]
    torch.linalg.matrix_norm(x, ord=3)  # E: linalg.matrix_norm: ord must be 'fro', 'nuc', 1, -1, 2, -2, inf or -inf, not 3.0  [tyr-shape]
    torch.linalg.cross(v[:, 1:], v[:, 1:])  # E: cross: dimension -1 of input (B, 2) must be 3, not 2  [tyr-shape]


def tensor_norms(x: Tensor[B, D, 8], p: float) -> None:
    """`Tensor.norm` / `torch.norm`: a numeric `p` (or one not known statically) is a vector norm over any dims;
    no `p`, `"fro"` or `"nuc"` is a matrix norm, at most 2 dims."""
    reveal_type(x.norm(p=2, dim=(0, 1, 2)))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.norm(x, p=1, dim=(0, 1, 2), keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[1], Literal[1]]"
    reveal_type(x.norm(p, (0, 1, 2)))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(x.norm(dim=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B]"
    x.norm(dim=(0, 1, 2))  # E: norm: a matrix norm (p='fro' or 'nuc') takes at most 2 dims, got (0, 1, 2); use a numeric p  [tyr-shape]
    torch.norm(x, p="nuc", dim=(0, 1, 2))  # E: norm: a matrix norm
