"""Sizes from a plain `int` are unknown: the view is not an error, and its dims are unknown."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def split_heads(x: Tensor[B, 64], h: int) -> None:
    y = x.view(x.shape[0], h, -1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Any, Any]"
