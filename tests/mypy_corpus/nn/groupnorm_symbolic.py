"""`nn.GroupNorm(G, C)` with `Dim` counts checks the input's channel dim against `C`; `affine=False`
(no weight) checks only that the input's channels split into the groups, as torch does."""

from typing import Generic, TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
G = TypeVar("G")
D = TypeVar("D")


def run(x: Tensor[B, C, 8], y: Tensor[B, D, 8], z: Tensor[B, 16, 8], g: Dim[G], c: Dim[C], flag: bool, n: int) -> None:
    reveal_type(nn.GroupNorm(g, c))  # N: Revealed type is "torch.nn.modules.normalization.GroupNorm[G, C, Literal[True]]"
    reveal_type(nn.GroupNorm(4, 16, affine=False))  # N: Revealed type is "torch.nn.modules.normalization.GroupNorm[Literal[4], Literal[16], Literal[False]]"
    reveal_type(nn.GroupNorm(g, c)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[8]]"
    reveal_type(nn.GroupNorm(4, c)(x))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[8]]"
    reveal_type(nn.GroupNorm(g, 16)(z))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[8]]"
    reveal_type(nn.GroupNorm(g, c, affine=False)(y))  # N: Revealed type is "torch._tensor.Tensor[B, D, Literal[8]]"
    reveal_type(nn.GroupNorm(4, 16, affine=False)(torch.zeros(2, 8, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[4]]"
    reveal_type(nn.GroupNorm(4, 16, affine=flag)(torch.zeros(2, 8, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[8], Literal[4]]"
    reveal_type(nn.GroupNorm(2, 0)(torch.zeros(2, 0, 3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[0], Literal[3]]"
    reveal_type(F.group_norm(x, g, torch.ones(c)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[8]]"
    nn.GroupNorm(g, c)(y)  # E: group_norm: the weight must have shape (D,), got (C,) (in GroupNorm[G, C, True])  [tyr-shape]
    nn.GroupNorm(g, 16)(x)  # E: group_norm: the weight must have shape (C,), got (16,) (in GroupNorm[G, 16, True])  [tyr-shape]
    nn.GroupNorm(c, c)(torch.zeros(1, c))  # E: group_norm: each group of (1, C) holds a single value (in GroupNorm[C, C, True])  [tyr-shape]
    nn.GroupNorm(4, 16, bias=False)(torch.zeros(2, 8, 4))  # E: group_norm: the weight must have shape (8,), got (16,) (in GroupNorm[4, 16, True])  [tyr-shape]
    nn.GroupNorm(4, 16, affine=False)(torch.zeros(2, 6, 4))  # E: group_norm: the input's 6 channels do not split into num_groups=4 groups (in GroupNorm[4, 16, False])  [tyr-shape]
    nn.GroupNorm(4, 16, affine=False)(torch.zeros(1, 4))  # E: group_norm: each group of (1, 4) holds a single value (in GroupNorm[4, 16, False])  [tyr-shape]
    F.group_norm(x, g, torch.ones(g))  # E: group_norm: the weight must have shape (C,), got (G,)  [tyr-shape]


class Block(nn.Module, Generic[G, C]):
    def __init__(self, g: Dim[G], c: Dim[C]) -> None:
        super().__init__()
        self.norm = nn.GroupNorm(g, c)

    def forward(self, x: Tensor[B, C, 8]) -> Tensor[B, C, 8]:
        return self.norm(x)

    def other(self, x: Tensor[B, D, 8]) -> None:
        self.norm(x)  # E: group_norm: the weight must have shape (D,), got (C,) (in GroupNorm[G, C, True])  [tyr-shape]
