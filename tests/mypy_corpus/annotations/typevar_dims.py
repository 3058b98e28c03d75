"""A TypeVar is a size bound per call: `Tensor[B, 768]`."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def first_rows(x: Tensor[B, 768]) -> Tensor[B, 768]:
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[768]]"
    return x
