"""SHAPES.md §4: an MLP whose second layer expects 128 features but gets 256."""

from typing import TypeVar

import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(784, 256)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x: Tensor[B, 784]) -> Tensor[B, 10]:
        return self.fc2(F.relu(self.fc1(x)))  # E: linear: dimension 1 of the input (256) does not match dimension 1 of the weight (128) (in Linear[128, 10])  [tyr-shape]
