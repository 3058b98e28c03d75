"""A TypeVarTuple binds to the dims it covers, and the return type gets them back."""

from typing import TypeVar, TypeVarTuple, reveal_type

import torch

from tyr import Tensor

Batch = TypeVarTuple("Batch")
D = TypeVar("D")


def last(x: Tensor[*Batch, D]) -> Tensor[*Batch]:
    return x[..., 0]


def pair(x: Tensor[*Batch, D], y: Tensor[*Batch, D]) -> Tensor[*Batch, D]:
    return x + y


reveal_type(last(torch.randn(2, 3, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
reveal_type(last(torch.randn(5)))  # N: Revealed type is "torch._tensor.Tensor[()]"
pair(torch.randn(2, 3), torch.randn(4, 3))  # E: Dimension *Batch of "pair": bound to (2,) by argument "x", but argument "y" has (4,)  [tyr-shape]
