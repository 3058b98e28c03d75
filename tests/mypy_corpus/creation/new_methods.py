"""`x.new_zeros(size)` and friends take new sizes."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def fresh(x: Tensor[B, 8]) -> None:
    reveal_type(x.new_zeros(x.shape[0], 3))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    reveal_type(x.new_ones((2, 2)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[2]]"
