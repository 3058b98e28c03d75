"""A kernel, stride or padding that is an int of unknown value (a config's plain int) in one spatial
dim leaves only that dim's output size unknown: the other dims, whose items are known, keep their
exact sizes and are checked (`tests/mypy_corpus/conv/unknown_geometry.py`: every dim unknown)."""

from typing import Generic, TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
N = TypeVar("N")
Dh = TypeVar("Dh")
T = TypeVar("T")
W = TypeVar("W")


class Residual(nn.Module, Generic[H]):
    """Nystromformer's residual depthwise conv over the sequence axis only: the head axis has kernel 1."""

    def __init__(self, heads: Dim[H], k: int = 33) -> None:
        super().__init__()
        self.conv = nn.Conv2d(heads, heads, (k, 1), padding=(k // 2, 0), groups=heads, bias=False)

    def forward(self, v: Tensor[B, H, N, Dh]) -> Tensor[B, H, N, Dh]:
        y = self.conv(v)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, Any, Dh]"
        return y


def known_axis_checked(x: Tensor[B, C, H, 3], width: Dim[C], k: int) -> None:
    """The second axis's kernel (5) is known and longer than the input's 3: an error whatever `k` is."""
    conv = nn.Conv2d(width, width, (k, 5), padding=(k // 2, 0))
    conv(x)  # E: conv2d: spatial dim 1 of the input (3, padded to 3) is smaller than the dilated kernel (5)
    shrinking = nn.Conv2d(width, width, (k, 3), padding=(k // 2, 0))
    reveal_type(shrinking(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, Literal[1]]"
    same_width: Tensor[B, C, H, 3] = shrinking(x)  # E: Incompatible types in assignment


def strided_one_axis(x: Tensor[B, 3, H, W], w: Tensor[8, 3, 3, 3], s: int) -> None:
    reveal_type(F.conv2d(x, w, stride=(s, 1), padding=(0, 1)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Any, W]"
    reveal_type(F.conv2d(x, w, stride=(s, 1), padding=(s, 1), dilation=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Any, tyr._static.DimExpr[Literal['W - 2'], W]]"
    F.conv2d(x, w, stride=(s, 0))  # E: conv2d: strides must be positive, got [?, 0]


def one_dim(x: Tensor[B, C, T], width: Dim[C], k: int) -> None:
    """With one spatial dim, an unknown item leaves it unknown; the channels are still checked."""
    conv = nn.Conv1d(width, width, 3, padding=k)
    reveal_type(conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    conv(torch.zeros(2, 5, 10))  # E: conv1d: the input has 5 channels
    reveal_type(F.max_pool1d(x, (k,)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"


def pooling(x: Tensor[B, C, H, W], k: int) -> None:
    reveal_type(nn.MaxPool2d((k, 2))(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, tyr._static.DimExpr[Literal['W//2'], W]]"
    reveal_type(F.avg_pool2d(x, (k, 3), stride=(k, 1), padding=(0, 1)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, W]"
    reveal_type(nn.AvgPool2d(2, stride=(k, 2))(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, tyr._static.DimExpr[Literal['W//2'], W]]"
    F.max_pool2d(x, (k, 2), padding=(0, 2))  # E: max_pool2d: padding [0, 2] must be between 0 and half of kernel_size [?, 2]


def transposed(x: Tensor[B, C, H, W], width: Dim[C], k: int) -> None:
    up = nn.ConvTranspose2d(width, width, (k, 2), stride=(k, 2))
    reveal_type(up(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, tyr._static.DimExpr[Literal['2*W'], W]]"
