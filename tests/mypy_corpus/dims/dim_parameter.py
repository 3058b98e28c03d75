"""A `Dim[D]` parameter binds `D` from the value passed; a plain int binds nothing (no error)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

D = TypeVar("D")


def square(d: Dim[D]) -> Tensor[D, D]:
    return torch.zeros(d, d)


reveal_type(square(3))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[3]]"


def from_int(n: int) -> None:
    reveal_type(square(n))  # N: Revealed type is "torch._tensor.Tensor[Any, Any]"
