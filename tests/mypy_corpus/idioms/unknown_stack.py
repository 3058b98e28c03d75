"""SHAPES.md §6: a checker that cannot prove a fact says nothing: stacking a list of unknown length."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def collect(batches: list[Tensor[B, 4]]) -> Tensor[B, 4]:
    stacked = torch.stack(batches)
    reveal_type(stacked)  # N: Revealed type is "torch._tensor.Tensor[Any, B, Literal[4]]"
    return stacked.mean(0)
