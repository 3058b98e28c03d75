"""`split` and `chunk` into tuples of pieces; `unbind` into slices."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")


def pieces(x: Tensor[B, "3*C"], c: Dim[C], y: Tensor[B, 10]) -> None:
    q, k, v = x.split(c, dim=1)
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, C]"
    reveal_type(y.split(4, dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[4]], torch._tensor.Tensor[B, Literal[4]], torch._tensor.Tensor[B, Literal[2]]]"
    reveal_type(y.split([3, 7], dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[3]], torch._tensor.Tensor[B, Literal[7]]]"
    reveal_type(torch.split(y, 5, 1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[5]], torch._tensor.Tensor[B, Literal[5]]]"
    a, b = y.chunk(2, dim=-1)
    reveal_type(a)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5]]"
    first, second = torch.zeros(2, 7).unbind(0)
    reveal_type(first)  # N: Revealed type is "torch._tensor.Tensor[Literal[7]]"
