"""Reductions with `dim` and `keepdim`: `sum`, `mean`, `std`, `var`, `norm`, `amax`, `logsumexp`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def reduce(x: Tensor[B, T, C]) -> None:
    reveal_type(x.sum())  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(x.sum(-1))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.mean(dim=1, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], C]"
    reveal_type(x.std(dim=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(x.var(-1, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    reveal_type(x.norm(dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.amax(dim=0))  # N: Revealed type is "torch._tensor.Tensor[T, C]"
    reveal_type(torch.logsumexp(x, dim=2))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.mean(x, 0))  # N: Revealed type is "torch._tensor.Tensor[T, C]"
