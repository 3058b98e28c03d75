"""`F.conv2d` output sizes: `(H + 2*padding - dilation*(kernel - 1) - 1) // stride + 1`."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def convs(x: Tensor[B, 3, 32, 32], w: Tensor[16, 3, 3, 3], bias: Tensor[16]) -> None:
    reveal_type(F.conv2d(x, w))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[30], Literal[30]]"
    reveal_type(F.conv2d(x, w, bias, padding=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[32], Literal[32]]"
    reveal_type(F.conv2d(x, w, stride=2, padding=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[16], Literal[16]]"
    reveal_type(F.conv2d(x, w, padding="same"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[32], Literal[32]]"
    reveal_type(F.conv2d(x, w, dilation=2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[28], Literal[28]]"
