"""`F.batch_norm`: statistics of shape `(C,)` for an input `(N, C, ...)`."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def normalise(x: Tensor[B, 16, 4, 4], mean: Tensor[16], var: Tensor[16]) -> None:
    reveal_type(F.batch_norm(x, mean, var))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[4], Literal[4]]"
    F.batch_norm(x, torch.zeros(8), var)  # E: batch_norm: running_mean (8,) must hold one value per channel (16)  [tyr-shape]
