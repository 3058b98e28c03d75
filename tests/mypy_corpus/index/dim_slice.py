"""Slicing with a `Dim` (`self.cos[:t]`) keeps the symbol."""

from typing import Generic, TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

T = TypeVar("T")
L = TypeVar("L")
D = TypeVar("D")


class Rotary(Generic[L, D]):
    def __init__(self, length: Dim[L], dim: Dim[D]) -> None:
        self.cos: Tensor[L, D] = torch.ones(length, dim)

    def table(self, t: Dim[T]) -> Tensor[T, D]:
        cos = self.cos[:t]
        reveal_type(cos)  # N: Revealed type is "torch._tensor.Tensor[Any, D]"
        return cos
