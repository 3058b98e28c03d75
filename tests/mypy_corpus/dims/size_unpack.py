"""`b, t, c = x.size()` gives each dim's size, and the sizes rebuild shapes."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def unpack(x: Tensor[B, T, C]) -> Tensor[B, T, C]:
    b, t, c = x.size()
    reveal_type(b)  # N: Revealed type is "tyr._static.Dim[B]"
    reveal_type(c)  # N: Revealed type is "tyr._static.Dim[C]"
    y = torch.zeros(b, t, c)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    return y
