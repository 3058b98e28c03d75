"""`nn.AdaptiveAvgPool2d`, `nn.PixelShuffle`, `nn.Upsample` carry their sizes from the constructor to the output."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


def vision(img: Tensor[B, C, H, W]) -> None:
    pool = nn.AdaptiveAvgPool2d((1, 1))
    reveal_type(pool)  # N: Revealed type is "torch.nn.modules.pooling.AdaptiveAvgPool2d[tuple[Literal[1], Literal[1]]]"
    reveal_type(pool(img))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[1], Literal[1]]"
    reveal_type(nn.AdaptiveMaxPool2d(7)(img))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[7], Literal[7]]"
    reveal_type(nn.PixelUnshuffle(2)(img))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['4*C'], C], tyr._static.DimExpr[Literal['H//2'], H], tyr._static.DimExpr[Literal['W//2'], W]]"
    up = nn.Upsample(scale_factor=2, mode="nearest")
    reveal_type(up(img))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['2*H'], H], tyr._static.DimExpr[Literal['2*W'], W]]"
    reveal_type(nn.Upsample(size=(32, 32), mode="bilinear")(img))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[32], Literal[32]]"
    head = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8, 10))
    reveal_type(head(torch.zeros(4, 3, 16, 16)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[10]]"
    nn.PixelShuffle(2)(torch.zeros(2, 6, 5, 5))  # E: pixel_shuffle: the channel count 6 must be divisible by 4 (in PixelShuffle[2])  [tyr-shape]
    bad = nn.Sequential(nn.Conv2d(3, 8, 3), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(16, 10))
    bad(torch.zeros(4, 3, 16, 16))  # E: layer 3 of nn.Sequential: linear  [tyr-shape]
