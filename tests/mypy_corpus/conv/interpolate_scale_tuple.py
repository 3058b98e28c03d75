"""`F.interpolate` with one scale factor per spatial dim (a tuple or a list)."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def resize(x: Tensor[B, 3, H, 16], v: Tensor[B, 3, 4, 8, 8]) -> None:
    reveal_type(F.interpolate(x, scale_factor=(2, 0.5)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], tyr._static.DimExpr[Literal['2*H'], H], Literal[8]]"
    reveal_type(F.interpolate(v, scale_factor=[1.0, 2.0, 2.0], mode="trilinear"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4], Literal[16], Literal[16]]"
    F.interpolate(x, scale_factor=(2.0, 2.0, 2.0))  # E: interpolate: 3 scale factors given for 2 spatial dims  [tyr-shape]
