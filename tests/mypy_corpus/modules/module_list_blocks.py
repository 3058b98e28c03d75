"""A stack of generic blocks in an `nn.ModuleList`, applied in a loop."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


class Block(nn.Module, Generic[C]):
    def __init__(self, c: Dim[C]) -> None:
        super().__init__()
        self.ln = nn.LayerNorm(c)
        self.fc = nn.Linear(c, c)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        return x + self.fc(self.ln(x))


class Stack(nn.Module, Generic[C]):
    def __init__(self, c: Dim[C], depth: int) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([Block(c) for _ in range(depth)])

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        for block in self.blocks:
            x = block(x)
        return x


reveal_type(Stack(32, 3)(torch.randn(2, 7, 32)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[7], Literal[32]]"
