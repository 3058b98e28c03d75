"""`@checked` functions are checked statically like any other."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor, checked

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


@checked
def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


reveal_type(linear(torch.randn(4, 8), torch.randn(2, 8)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[2]]"
linear(torch.randn(4, 8), torch.randn(2, 9))  # E: Dimension M of "linear": bound to 8 by argument "x", but argument "w" has 9  [tyr-shape]
