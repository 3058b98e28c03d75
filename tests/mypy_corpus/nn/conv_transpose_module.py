"""`nn.ConvTranspose2d` doubles the spatial size with stride 2, kernel 4, padding 1."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

up = nn.ConvTranspose2d(32, 16, 4, stride=2, padding=1)


def run(x: Tensor[B, 32, 8, 8]) -> None:
    reveal_type(up(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[16], Literal[16]]"
    up(torch.zeros(1, 16, 8, 8))  # E: conv_transpose2d  [tyr-shape]
