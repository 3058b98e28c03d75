"""`median()` is a 0-d tensor; `median(dim)`, `nanmedian(dim)` and `mode()` give values and indices."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def middle(x: Tensor[B, T, 5]) -> None:
    reveal_type(x.median())  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(x.median(1, keepdim=True).values)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], Literal[5]]"
    reveal_type(torch.mode(x).indices)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    x.median(3)  # E: median: dimension 3 is out of range  [tyr-shape]
