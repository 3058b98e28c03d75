"""Messages name the dimension and both sizes, on the line of the argument that does not fit."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


linear(
    torch.randn(32, 768),
    torch.randn(512, 700),  # E: Dimension M of "linear": bound to 768 by argument "x", but argument "w" has 700  [tyr-shape]
)
