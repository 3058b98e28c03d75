"""`nn.Bilinear` carries its sizes; an adaptive pool's `None` keeps that input size; a depthwise convolution
with a size for `groups`; a pooling window that is a size."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
H = TypeVar("H")
W = TypeVar("W")


def bilinear(x: Tensor[B, T, D], y: Tensor[B, T, 5]) -> None:
    reveal_type(nn.Bilinear(x.size(2), 5, 2)(x, y))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[2]]"
    reveal_type(nn.Bilinear(x.size(2), 5, 2))  # N: Revealed type is "torch.nn.modules.linear.Bilinear[D, Literal[5], Literal[2]]"
    nn.Bilinear(x.size(2), 4, 2)(x, y)  # E: bilinear: dimension 2 of input2 (5) does not match dimension 2 of the weight (4) (in Bilinear[D, 4, 2])  [tyr-shape]


def pools(img: Tensor[B, 3, H, W], v: Tensor[1, 3, T]) -> None:
    reveal_type(nn.AdaptiveAvgPool2d((2, None))(img))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[2], W]"
    reveal_type(nn.AdaptiveMaxPool2d((None, 1))(img))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], H, Literal[1]]"
    reveal_type(F.avg_pool2d(img, img.shape[2:]))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[1], Literal[1]]"
    reveal_type(nn.MaxPool2d((img.shape[2], img.shape[3]))(img))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[1], Literal[1]]"
    F.avg_pool1d(v, v.shape[-1] + 1)  # E: avg_pool1d: spatial dim 0 of the input (T, padded by 0 on each side) is shorter than the pooling window (T + 1); the output would be empty  [tyr-shape]
    nn.MaxPool1d(v.shape[-1] + 1)(v)  # E: max_pool1d: spatial dim 0 of the input (T, padded by 0 on each side) is shorter than the pooling window (T + 1); the output would be empty (in MaxPool1d[T + 1, None, 0, 1, False, False])  [tyr-shape]


def depthwise(c: Tensor[B, D, T]) -> None:
    reveal_type(nn.Conv1d(c.shape[1], c.shape[1], 3, padding=1, groups=c.shape[1])(c))  # N: Revealed type is "torch._tensor.Tensor[B, D, T]"
    nn.Conv1d(c.shape[1] + 1, c.shape[1] + 1, 3, padding=1, groups=c.shape[1] + 1)(c)  # E: conv1d: the input has D channels (dim 1 of (B, D, T)) but the weight (D + 1, 1, 3) with groups=D + 1 expects D + 1 (in Conv1d[D + 1, D + 1, 3, 1, 1, 1, D + 1])  [tyr-shape]
