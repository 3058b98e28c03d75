"""A `Dim` parameter may have a plain `int` default (SHAPES.md §3: an `int` where a `Dim` is wanted
is never an error); a call that leaves it out binds no size."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")

WIDTH = 32


class Proj(nn.Module, Generic[D]):
    def __init__(self, d_model: Dim[D] = 16, hidden: Dim[D] = WIDTH) -> None:
        super().__init__()
        self.fc = nn.Linear(d_model, d_model)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return self.fc(x)


def widen(x: Tensor[B, D], factor: int = 2, d: Dim[D] = 8) -> Tensor[B, D]:
    return x


def use() -> None:
    p = Proj()
    reveal_type(p)  # N: Revealed type is "tests.mypy_corpus.dims.dim_defaults.Proj[Any]"
    q = Proj(8)
    reveal_type(q)  # N: Revealed type is "tests.mypy_corpus.dims.dim_defaults.Proj[Literal[8]]"
    q(torch.randn(2, 4))  # E: Dimension 1 of argument "x" to "Proj.forward": expected 8, got 4
