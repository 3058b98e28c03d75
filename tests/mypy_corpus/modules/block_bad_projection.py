"""Inside a generic module: the projection back is built for the wrong width."""

from typing import Generic, TypeVar

import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, 4 * d)
        self.proj = nn.Linear(2 * d, d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return x + self.proj(F.gelu(self.fc(x)))  # E: linear: dimension 1 of the input (4*D) does not match dimension 1 of the weight (2*D) (in Linear[2*D, D])  [tyr-shape]
