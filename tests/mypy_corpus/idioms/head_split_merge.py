"""SHAPES.md §6: head split `view(b, t, h, c // h)` ... merge `view(b, t, c)` checks clean."""

from typing import Generic, TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")


class Attention(nn.Module, Generic[C, H]):
    def __init__(self, c: Dim[C], h: Dim[H]) -> None:
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(c, 3 * c)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        b, t, c = x.size()
        h = self.h
        q, k, v = self.qkv(x).split(c, dim=-1)
        q = q.view(b, t, h, c // h).transpose(1, 2)
        k = k.view(b, t, h, c // h).transpose(1, 2)
        v = v.view(b, t, h, c // h).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, tyr._static.DimExpr[Literal['C//H'], C, H]]"
        return y.transpose(1, 2).reshape(b, t, c)
