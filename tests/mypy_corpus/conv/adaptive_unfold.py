"""Adaptive pools resize the spatial dims; `F.unfold` cuts patches, `F.fold` puts them back."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")
T = TypeVar("T")


def pool(img: Tensor[B, C, H, W], seq: Tensor[B, C, T]) -> None:
    reveal_type(F.adaptive_avg_pool2d(img, 1).flatten(1))  # N: Revealed type is "torch._tensor.Tensor[B, C]"
    reveal_type(F.adaptive_avg_pool2d(img, (7, None)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[7], W]"
    reveal_type(F.adaptive_max_pool1d(seq, 4))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[4]]"
    reveal_type(F.unfold(img, 2, stride=2))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['4*C'], C], tyr._static.DimExpr[Literal['(H//2)*(W//2)'], H, W]]"
    reveal_type(F.fold(torch.zeros(2, 12, 16), (8, 8), 2, stride=2))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3], Literal[8], Literal[8]]"
    F.adaptive_avg_pool2d(seq[0, 0], (2, 2))  # E: adaptive_avg_pool2d: the input (T,) must have more than 2 dims  [tyr-shape]
    F.fold(torch.zeros(2, 12, 15), (8, 8), 2, stride=2)  # E: fold: dim -1 of the input (15) must be the number of blocks, 16, that output_size (8, 8) holds  [tyr-shape]
