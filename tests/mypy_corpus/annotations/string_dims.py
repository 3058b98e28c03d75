"""Sizes computed from other dims: strings with + - * // over TypeVars and int literals."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
N = TypeVar("N")
M = TypeVar("M")


def forms(a: Tensor[B, "D//4"], b: Tensor["B*T", D], c: Tensor[B, "N+M"], d: Tensor["2*D - 1"]) -> None:
    reveal_type(a)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D//4'], D]]"
    reveal_type(b)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T], D]"
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['M + N'], M, N]]"
    reveal_type(d)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['2*D - 1'], D]]"
