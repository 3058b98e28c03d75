"""A stride-2 convolution halves an even size: `(H - 1)//2 + 1` and `(H + 1)//2` are `H//2`."""

from typing import Generic, TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


class Down(nn.Module, Generic[C]):
    def __init__(self, c: Dim[C]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(c, 2 * c, 3, stride=2, padding=1)

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, "2*C", "H//2", "W//2"]:
        return self.conv(x)


class Up(nn.Module, Generic[C]):
    def __init__(self, c: Dim[C]) -> None:
        super().__init__()
        self.conv = nn.ConvTranspose2d(2 * c, c, 2, stride=2)

    def forward(self, x: Tensor[B, "2*C", "H//2", "W//2"]) -> Tensor[B, C, H, W]:
        return self.conv(x)


def round_trip(x: Tensor[B, 8, H, W]) -> Tensor[B, 8, H, W]:
    down, up = Down(8), Up(8)
    y = down(x)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], tyr._static.DimExpr[Literal['H//2'], H], tyr._static.DimExpr[Literal['W//2'], W]]"
    reveal_type(F.max_pool2d(x, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], tyr._static.DimExpr[Literal['H//2'], H], tyr._static.DimExpr[Literal['W//2'], W]]"
    return up(y)


def skipped_down(x: Tensor[B, 8, H, W]) -> None:
    Up(8)(x)  # E: Dimension 1 of argument "x" to "Up.forward": expected 16, got 8  [tyr-shape]
