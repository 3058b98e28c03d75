"""Indexing `x.shape` past the last dim is an error (the shape is a tuple of known length)."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")


def bad(x: Tensor[B, 3]) -> None:
    third = x.shape[2]  # E: Tuple index out of range  [misc]
