"""`F.conv1d` over sequences `(N, C, L)`."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")


def seq(x: Tensor[B, 4, L], w: Tensor[8, 4, 5]) -> None:
    reveal_type(F.conv1d(x, w, padding=2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], L]"
    reveal_type(F.conv1d(x, w))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], tyr._static.DimExpr[Literal['L - 4'], L]]"
