"""`F.linear(x, w, b)`: `w` is `(out, in)`."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def project(x: Tensor[B, 64], w: Tensor[16, 64], b: Tensor[16]) -> None:
    reveal_type(F.linear(x, w, b))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16]]"
    F.linear(x, torch.zeros(64, 16))  # E: linear: dimension 1 of the input (64) does not match dimension 1 of the weight (16)  [tyr-shape]
