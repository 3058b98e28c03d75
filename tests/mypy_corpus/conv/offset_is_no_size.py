"""A rule's division of a size by a stride takes the *size* to be a multiple of the stride (SHAPES.md
§6: `h // 2` after a stride-2 convolution), never a kernel, a padding or a start beside it: a kernel
`K` is usually odd, and `(H - K)//2 + 1` read with `K` even (`H//2 - K//2 + 1`) is one too many at
H = 8, K = 3.  Where the stride does not divide such a symbol's terms the size is unknown; where it
does (a patch embedding's `(I - P)//P + 1`, windows `P` every `P`) it is exact."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
K = TypeVar("K")
P = TypeVar("P")


def strided_kernel(x: Tensor[B, C, H], w: Tensor[C, C, K], k: Dim[K], p: Dim[P]) -> None:
    reveal_type(F.conv1d(x, w, stride=2))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(F.max_pool1d(x, k, stride=2))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(F.conv1d(x, w))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H - K + 1'], H, K]]"
    reveal_type(F.max_pool1d(x, k))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H//K'], H, K]]"
    reveal_type(F.avg_pool1d(x, 3, stride=2, padding=1))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H//2'], H]]"


def patches(x: Tensor[B, C, H], patch: Tensor[8, C, P], p: Dim[P]) -> None:
    reveal_type(F.conv1d(x, patch, stride=p))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], tyr._static.DimExpr[Literal['H//P'], H, P]]"
    reveal_type(x.unfold(2, p, p))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H//P'], H, P], P]"
    reveal_type(x.unfold(2, p, 2))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any, P]"


def starts(x: Tensor[B, H], k: Dim[K]) -> None:
    reveal_type(x[:, k::2])  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    reveal_type(x[:, 1::2])  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['H//2'], H]]"
    reveal_type(torch.arange(k, 64, 2))  # N: Revealed type is "torch._tensor.Tensor[Any]"


def scaled(x: Tensor[B, C, H]) -> None:
    reveal_type(F.interpolate(x, scale_factor=0.5))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H//2'], H]]"
    reveal_type(F.interpolate(x, scale_factor=1.5))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"


def same_padding(x: Tensor[B, C, H], c: Dim[C], k: Dim[K]) -> None:
    """`padding=k // 2` is written for odd kernels (torch keeps `H`); read with `K` even, `2*(K//2) - K`
    would cancel to 0 and give `H + 1`: a padding (or pad) that divides a kernel leaves the size unknown."""
    reveal_type(nn.Conv1d(c, c, k, padding=k // 2)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(nn.Conv1d(c, c, k, padding=(k - 1) // 2)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(nn.ConvTranspose1d(c, c, k, padding=k // 2)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(F.pad(x, (k // 2, k // 2)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Any]"
    reveal_type(nn.Conv1d(c, c, 3, padding=1)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, H]"
