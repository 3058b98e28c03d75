"""Comparisons broadcast and give tensors (masks)."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def masks(x: Tensor[B, T], limit: Tensor[T]) -> None:
    reveal_type(x > 0)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x <= limit)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x == limit)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type((x > 0) & (x < 1))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
