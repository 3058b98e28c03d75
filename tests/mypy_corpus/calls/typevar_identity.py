"""SHAPES.md §6: type variables by identity.  A generic module calling another with an expression size
(`2*H` of the callee's `H`, a method-level `H` and a class-level `H`) keeps the caller's variable, and
the type equals the one the caller's annotation writes."""

from typing import Generic, TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
I = TypeVar("I")
O = TypeVar("O")


class Down(nn.Module, Generic[I, O]):
    def __init__(self, i: Dim[I], o: Dim[O]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(i, o, 3, padding=1)

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, O, "H//2", "W//2"]:
        return self.conv(F.max_pool2d(x, 2))


class Encoder(nn.Module, Generic[I]):
    def __init__(self, i: Dim[I]) -> None:
        super().__init__()
        self.down1 = Down(i, 2 * i)
        self.down2 = Down(2 * i, 4 * i)
        self.stages = nn.ModuleList([Down(i, i) for _ in range(2)])

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, "4*I", "H//4", "W//4"]:
        y = self.down1(x)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*I'], I], tyr._static.DimExpr[Literal['H//2'], H], tyr._static.DimExpr[Literal['W//2'], W]]"
        return self.down2(y)

    def wrong(self, x: Tensor[B, I, H, W]) -> Tensor[B, "4*I", H, W]:
        return self.down2(self.down1(x))  # E: Incompatible return value type (got "Tensor[B, DimExpr[Literal['4*I'], I], DimExpr[Literal['H//4'], H], DimExpr[Literal['W//4'], W]]"
