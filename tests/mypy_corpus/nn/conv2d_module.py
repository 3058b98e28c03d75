"""`nn.Conv2d` carries its channels and geometry; calling it runs the convolution rule."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

conv = nn.Conv2d(3, 16, 3, padding=1)
reveal_type(conv)  # N: Revealed type is "torch.nn.modules.conv.Conv2d[Literal[3], Literal[16], Literal[3], Literal[1], Literal[1], Literal[1], Literal[1]]"
strided = nn.Conv2d(16, 32, kernel_size=(3, 3), stride=2, padding=1)


def run(x: Tensor[B, 3, 64, 64]) -> None:
    h = conv(x)
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[64], Literal[64]]"
    reveal_type(strided(h))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32], Literal[32], Literal[32]]"
    strided(x)  # E: conv2d: the input has 3 channels  [tyr-shape]
