"""Modules inside modules: sizes flow through each level's constructor."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")


class Proj(nn.Module, Generic[D, E]):
    def __init__(self, d: Dim[D], e: Dim[E]) -> None:
        super().__init__()
        self.lin = nn.Linear(d, e)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, E]:
        return self.lin(x)


class Twice(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.up = Proj(d, 2 * d)
        self.down = Proj(2 * d, d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        h = self.up(x)
        reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*D'], D]]"
        return self.down(h)


reveal_type(Twice(16)(torch.randn(3, 16)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[16]]"
