"""SHAPES.md §6: rebinding a name to a tensor of another shape is not an error."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")


def heads(q: Tensor[B, T, C], h: Dim[H]) -> None:
    b, t, c = q.size()
    q = q.view(b, t, h, c // h)
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, T, H, tyr._static.DimExpr[Literal['C//H'], C, H]]"
    q = q.transpose(1, 2)
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, tyr._static.DimExpr[Literal['C//H'], C, H]]"
