"""`view_as` / `reshape_as` take the other tensor's shape."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def like(x: Tensor[B, 12], y: Tensor[B, 3, 4]) -> None:
    reveal_type(x.view_as(y))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4]]"
    reveal_type(y.reshape_as(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[12]]"
