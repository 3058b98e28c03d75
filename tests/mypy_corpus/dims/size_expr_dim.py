"""Sizes of a tensor annotated with computed dims are computed values."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def rows(x: Tensor["B*4", "D//2"]) -> None:
    reveal_type(x.shape[0] // 4)  # N: Revealed type is "tyr._static.Dim[B]"
    reveal_type(x.size(1) * 2)  # N: Revealed type is "tyr._static.Dim[D]"  # D is even (SHAPES.md §6)
