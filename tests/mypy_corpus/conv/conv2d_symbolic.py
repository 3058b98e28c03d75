"""Strided sizes that simplify: a 3x3 convolution with stride 2 and padding 1 on `2*H` gives `H`."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")


def down(x: Tensor[B, 8, "2*H", "2*W"], w: Tensor[8, 8, 3, 3]) -> Tensor[B, 8, H, W]:
    y = F.conv2d(x, w, stride=2, padding=1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], H, W]"
    return y


def same(x: Tensor[B, 8, H, W], w: Tensor[8, 8, 3, 3]) -> Tensor[B, 8, H, W]:
    return F.conv2d(x, w, padding=1)
