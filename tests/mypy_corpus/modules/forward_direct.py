"""Calling `forward` directly binds the same way as calling the module."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.out = nn.Linear(64, 10)

    def forward(self, x: Tensor[B, 64]) -> Tensor[B, 10]:
        return self.out(x)


reveal_type(Head().forward(torch.randn(8, 64)))  # N: Revealed type is "torch._tensor.Tensor[Literal[8], Literal[10]]"
Head().forward(torch.randn(8, 32))  # E: Dimension 1 of argument "x" to "Head.forward": expected 64, got 32  [tyr-shape]
