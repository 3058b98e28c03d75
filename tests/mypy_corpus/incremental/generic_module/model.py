"""A module generic in its width: its attributes' types (`Linear[D, 4*D]`) come back from the cache."""

from typing import Generic, TypeVar

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
        self.net = nn.Sequential(nn.Linear(d, d), nn.ReLU())

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return x + self.proj(F.gelu(self.fc(self.net(x))))
