"""SHAPES.md §6: size bindings solved from a call, then used by the caller."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
T = TypeVar("T")


def halves(x: Tensor[B, "2*D"]) -> tuple[Tensor[B, D], Tensor[B, D]]:
    a, b = x.chunk(2, dim=-1)
    return a, b


def shifted(tokens: Tensor[B, "T+1"]) -> tuple[Tensor[B, T], Tensor[B, T]]:
    return tokens[:, :-1], tokens[:, 1:]


left, right = halves(torch.randn(4, 10))
reveal_type(left)  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[5]]"
inputs, targets = shifted(torch.randint(0, 9, (4, 9)))
reveal_type(targets)  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[8]]"
