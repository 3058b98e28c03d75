"""Solving against symbolic sizes: `"2*D"` given `2*E` binds D = E; given `E`, D = E//2 (E even, or the call fails)."""

from typing import TypeVar, reveal_type

from tyr import Tensor

D = TypeVar("D")
E = TypeVar("E")


def halves(x: Tensor["2*D"]) -> Tensor[D]:
    return x[::2]


def caller(y: Tensor["E*2"], z: Tensor[E]) -> None:
    reveal_type(halves(y))  # N: Revealed type is "torch._tensor.Tensor[E]"
    reveal_type(halves(z))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['E//2'], E]]"
