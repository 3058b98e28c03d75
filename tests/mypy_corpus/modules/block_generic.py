"""SHAPES.md §4: a module generic in its constructor's sizes (`Block[D]`, bound by a `Dim[D]` argument)."""

from typing import Generic, TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(4 * d, d)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        reveal_type(self.fc)  # N: Revealed type is "torch.nn.modules.linear.Linear[D, tyr._static.DimExpr[Literal['4*D'], D]]"
        return x + self.proj(F.gelu(self.fc(x)))


block = Block(768)
reveal_type(block)  # N: Revealed type is "tests.mypy_corpus.modules.block_generic.Block[Literal[768]]"
reveal_type(block(torch.randn(2, 16, 768)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[16], Literal[768]]"
block(torch.randn(2, 16, 512))  # E: Dimension 2 of argument "x" to "Block.forward": expected 768, got 512  [tyr-shape]
