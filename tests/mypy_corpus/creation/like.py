"""`*_like` copies its argument's shape."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def likes(x: Tensor[B, D]) -> None:
    reveal_type(torch.zeros_like(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.ones_like(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.randn_like(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.empty_like(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.full_like(x, 2.0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.rand_like(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
