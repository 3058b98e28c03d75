"""`torch.where` and `masked_fill` broadcast their operands."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def fill(x: Tensor[B, T, T], mask: Tensor[T, T], bad: Tensor[B, 3]) -> None:
    reveal_type(x.masked_fill(mask == 0, float("-inf")))  # N: Revealed type is "torch._tensor.Tensor[B, T, T]"
    reveal_type(torch.where(mask > 0, x, 0.0))  # N: Revealed type is "torch._tensor.Tensor[B, T, T]"
    x.masked_fill(bad > 0, 0.0)  # E: masked_fill: dimension 2 of input (T) does not broadcast with dimension 1 of the mask (3)  [tyr-shape]
