"""Size bindings solved from a call: `Tensor[B, "2*D"]` given 10 binds D = 5; `"T+1"` given 9 binds T = 8."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
T = TypeVar("T")


def halves(x: Tensor[B, "2*D"]) -> Tensor[B, D]:
    return x[:, ::2]


def shift(x: Tensor["T+1"]) -> Tensor[T]:
    return x[1:]


reveal_type(halves(torch.randn(3, 10)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[5]]"
reveal_type(shift(torch.randn(9)))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
