"""SHAPES.md §1: `linear` with M bound to 768 by `x` and to 512 by `w` is an error on the line of the call."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


x: Tensor[32, 768] = torch.randn(32, 768)
w: Tensor[768, 512] = torch.randn(768, 512)
y = linear(x, w)  # E: Dimension M of "linear": bound to 768 by argument "x", but argument "w" has 512  [tyr-shape]
good = linear(x, torch.randn(512, 768))
reveal_type(good)  # N: Revealed type is "torch._tensor.Tensor[Literal[32], Literal[512]]"
