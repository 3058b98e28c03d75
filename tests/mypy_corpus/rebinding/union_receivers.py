"""A name that is a union of tensors after a branch, rebound from an index, an operator or a method
on itself: every member gives what their results share, which is the value the name gets.  (It
kept its old union once: `y[1:]` revealed the old `B`, where torch has `B - 1`.)"""

from typing import TypeVar, reveal_type

import einops
import torch

from tyr import Dim, Tensor

B = TypeVar("B")


def grown(y: Tensor[1], b: Dim[B], c: bool) -> None:
    v = einops.repeat(y, "k -> (k r)", r=b)
    if c:
        y = torch.add(y, v)
    y = y[1:]
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any]"
    y = y * 2
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any]"


def flipped(x: Tensor[B, 4], c: bool) -> None:
    if c:
        x = x[:, :2]
    x = x.flip(0)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
