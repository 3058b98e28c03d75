"""`torch.cat` adds up sizes along `dim`; `torch.stack` adds a new dim."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
M = TypeVar("M")
D = TypeVar("D")


def join(a: Tensor[B, N, D], b: Tensor[B, M, D]) -> None:
    reveal_type(torch.cat([a, b], dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['M + N'], M, N], D]"
    reveal_type(torch.cat((a, a)))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['2*B'], B], N, D]"
    reveal_type(torch.stack([a, a], dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], N, D]"
    reveal_type(torch.stack((b, b, b), -1))  # N: Revealed type is "torch._tensor.Tensor[B, M, D, Literal[3]]"
