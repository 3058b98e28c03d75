"""The MLP with matching layers checks clean, and its forward's shape flows to callers."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(256, 10)

    def forward(self, x: Tensor[B, 784]) -> Tensor[B, 10]:
        return self.fc2(F.relu(self.fc1(x)))


model = MLP()
reveal_type(model(torch.randn(64, 784)))  # N: Revealed type is "torch._tensor.Tensor[Literal[64], Literal[10]]"
model(torch.randn(64, 28, 28))  # E: Argument "x" to "MLP.forward" has 3 dimensions (64, 28, 28), but 2 are expected (B, 784)  [tyr-shape]
