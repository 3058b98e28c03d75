"""`transpose`, `permute`, `t()`, `.T` and `.mT`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
T = TypeVar("T")
D = TypeVar("D")


def move(x: Tensor[B, T, H, D], m: Tensor[T, D]) -> None:
    reveal_type(x.transpose(1, 2))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(torch.transpose(x, -1, -2))  # N: Revealed type is "torch._tensor.Tensor[B, T, D, H]"
    reveal_type(x.permute(0, 2, 1, 3))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(x.permute((3, 2, 1, 0)))  # N: Revealed type is "torch._tensor.Tensor[D, H, T, B]"
    reveal_type(m.t())  # N: Revealed type is "torch._tensor.Tensor[D, T]"
    reveal_type(m.T)  # N: Revealed type is "torch._tensor.Tensor[D, T]"
    reveal_type(x.mT)  # N: Revealed type is "torch._tensor.Tensor[B, T, D, H]"
    reveal_type(x.swapaxes(0, 3))  # N: Revealed type is "torch._tensor.Tensor[D, T, H, B]"
