"""A tensor attribute inferred from an assignment may be reassigned with another shape (a cache that grows)."""

from typing import Generic, TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

L = TypeVar("L")
D = TypeVar("D")


class Cache:
    def __init__(self) -> None:
        self.keys = torch.zeros(2, 0, 8)

    def append(self, k: Tensor[2, 1, 8]) -> None:
        self.keys = torch.cat([self.keys, k], dim=1)
        reveal_type(self.keys)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


class Table(Generic[L, D]):
    def __init__(self, length: Dim[L], dim: Dim[D]) -> None:
        self.cos: Tensor[L, D] = torch.ones(length, dim)

    def reset(self, length: Dim[L]) -> None:
        self.cos = torch.zeros(length, 3)  # E: Incompatible types in assignment (expression has type "Tensor[L, Literal[3]]", variable has type "Tensor[L, D]")  [assignment]
