"""`nn.Flatten()` merges every dim after the first by default."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")


def run(x: Tensor[B, 4, 5, 6]) -> None:
    reveal_type(nn.Flatten()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[120]]"
    reveal_type(nn.Flatten(0, 1)(x))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['4*B'], B], Literal[5], Literal[6]]"
