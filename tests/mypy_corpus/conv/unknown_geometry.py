"""A convolution or pooling whose kernel, stride or padding is an int of unknown value (a config's
plain int) has unknown spatial sizes; its batch and channels are still known and checked."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


def patch_embedding(x: Tensor[B, 3, H, W], width: Dim[C], patch: int) -> None:
    conv = nn.Conv2d(3, width, kernel_size=patch, stride=patch)
    reveal_type(conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"
    same = nn.Conv2d(3, width, kernel_size=patch, padding="same")
    reveal_type(same(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, H, W]"
    strided = nn.Conv2d(3, width, kernel_size=3, stride=patch)
    reveal_type(strided(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"
    wrong = nn.Conv2d(4, width, kernel_size=patch)
    wrong(x)  # E: conv2d: the input has 3 channels
    up = nn.ConvTranspose2d(3, width, kernel_size=patch, stride=patch)
    reveal_type(up(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"


def pooling(x: Tensor[B, C, H, W], k: int) -> None:
    reveal_type(nn.MaxPool2d(k)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"
    reveal_type(nn.AvgPool2d(2, stride=k)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"
    reveal_type(F.max_pool2d(x, k))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"
    reveal_type(F.avg_pool2d(x, 3, padding=k))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Any]"


def functional(x: Tensor[B, 3, H, W], w: Tensor[8, 3, 3, 3], s: int) -> None:
    reveal_type(F.conv2d(x, w, stride=s))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Any, Any]"
    reveal_type(F.conv2d(x, w, padding=s))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Any, Any]"
    F.conv2d(torch.zeros(2, 4, 8, 8), w, stride=s)  # E: conv2d: the input has 4 channels


def depthwise_with_config_padding(x: Tensor[B, C, H], width: Dim[C], k: int) -> None:
    """A padding computed from a plain int (`(k - 1) // 2`) is unknown too: the channels are still checked."""
    conv = nn.Conv1d(width, width, kernel_size=k, padding=(k - 1) // 2, groups=width)
    reveal_type(conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    conv(torch.zeros(2, 6, 10))  # E: conv1d: the input has 6 channels (dim 1 of (2, 6, 10)) but the weight (C, 1, ?) with groups=C expects C (in Conv1d[C, C, ?, 1, ?, 1, C])


def depthwise_with_config_groups(x: Tensor[B, 8, H, W], k: int, mid: int) -> None:
    """A groups count that is a plain int leaves the input's channels unchecked, and the rest known."""
    conv = nn.Conv2d(mid, 16, k, 1, k // 2, groups=mid)
    reveal_type(conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Any, Any]"
    conv(x.mean((1, 2)))  # E: conv2d
