"""Solving against symbolic sizes: `"2*D"` given `2*E` binds D = E."""

from typing import TypeVar, reveal_type

from tyr import Tensor

D = TypeVar("D")
E = TypeVar("E")


def halves(x: Tensor["2*D"]) -> Tensor[D]:
    return x[::2]


def caller(y: Tensor["E*2"], z: Tensor[E]) -> None:
    reveal_type(halves(y))  # N: Revealed type is "torch._tensor.Tensor[E]"
    reveal_type(halves(z))  # N: Revealed type is "torch._tensor.Tensor[Any]"
