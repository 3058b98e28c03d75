"""`self.proj.forward(x)`: a torch module's `forward` called by name gets the module's shape rule,
as `self.proj(x)` does."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(8, 16)
        self.norm = nn.LayerNorm(8)

    def forward(self, x: Tensor[B, 8]) -> None:
        reveal_type(self.proj.forward(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16]]"
        reveal_type(self.norm.forward(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
        self.proj.forward(torch.zeros(3, 5))  # E: linear: dimension 1 of the input (5) does not match dimension 1 of the weight (8) (in Linear[8, 16])
