"""`F.conv_transpose2d` upsamples: `(H - 1)*stride - 2*padding + dilation*(kernel - 1) + output_padding + 1`."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def up(x: Tensor[B, 8, H, H], w: Tensor[8, 4, 4, 4]) -> None:
    reveal_type(F.conv_transpose2d(x, w, stride=2, padding=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], tyr._static.DimExpr[Literal['2*H'], H], tyr._static.DimExpr[Literal['2*H'], H]]"
