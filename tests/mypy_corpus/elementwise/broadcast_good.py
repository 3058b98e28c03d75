"""Elementwise arithmetic broadcasts: trailing dims line up, a 1 stretches, a missing dim counts as 1."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def ops(x: Tensor[B, T, C], bias: Tensor[C], col: Tensor[B, T, 1], row: Tensor[1, C]) -> None:
    reveal_type(x + bias)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(x * col)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(col - row)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(x / 2)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(1 - x)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(x**2)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(-x)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
