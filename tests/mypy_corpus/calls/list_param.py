"""Shapes inside containers: `list[Tensor[B, D]]` binds from the list's element type."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def mean_of(xs: list[Tensor[B, D]]) -> Tensor[B, D]:
    return torch.stack(xs).mean(0)


items: list[Tensor[3, 4]] = [torch.zeros(3, 4), torch.ones(3, 4)]
reveal_type(mean_of(items))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[4]]"
