"""Keyword arguments and optional shaped parameters bind like positional ones."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def norm(x: Tensor[B, D], weight: Tensor[D] | None = None) -> Tensor[B, D]:
    return x if weight is None else x * weight


reveal_type(norm(weight=torch.ones(4), x=torch.zeros(2, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4]]"
norm(torch.zeros(2, 4), torch.ones(5))  # E: Dimension D of "norm": bound to 4 by argument "x", but argument "weight" has 5  [tyr-shape]
reveal_type(norm(torch.zeros(2, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4]]"
