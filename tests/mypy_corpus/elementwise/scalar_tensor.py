"""A 0-d tensor broadcasts with anything."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def scale(x: Tensor[B, 3], s: Tensor[()]) -> None:
    reveal_type(x * s)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    reveal_type(s + s)  # N: Revealed type is "torch._tensor.Tensor[()]"
