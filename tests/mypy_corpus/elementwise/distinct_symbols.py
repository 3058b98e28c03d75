"""Adding `Tensor[B, D]` to `Tensor[B, E]` is an error: D and E are different sizes."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")


def add(x: Tensor[B, D], y: Tensor[B, E]) -> None:
    x + y  # E: +: dimension 1 of the left operand (D) does not broadcast with dimension 1 of the right operand (E)  [tyr-shape]
