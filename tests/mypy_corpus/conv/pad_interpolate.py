"""`F.pad` grows the last dims (pairs from the last dim backwards); `F.interpolate` resizes."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def resize(x: Tensor[B, 3, H, 16]) -> None:
    reveal_type(F.pad(x, (1, 1)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], H, Literal[18]]"
    reveal_type(F.pad(x, (0, 0, 2, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], tyr._static.DimExpr[Literal['H + 4'], H], Literal[16]]"
    reveal_type(F.interpolate(x, scale_factor=2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], tyr._static.DimExpr[Literal['2*H'], H], Literal[32]]"
    reveal_type(F.interpolate(x, size=(8, 8), mode="bilinear"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[8], Literal[8]]"
