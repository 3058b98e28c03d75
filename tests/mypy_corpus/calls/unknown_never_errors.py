"""Unknown shapes bind nothing and never cause an error."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


def untyped(t: torch.Tensor) -> None:
    reveal_type(linear(t, t))  # N: Revealed type is "torch._tensor.Tensor[Any, Any]"
    reveal_type(linear(torch.zeros(2, 3), t))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Any]"
