"""Type aliases of shaped tensors: `Hidden = Tensor[B, T, 768]`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")

Hidden = Tensor[B, T, 768]
Logits = Tensor[B, T, 65]


def head(h: Hidden[B, T], w: Tensor[65, 768]) -> Logits[B, T]:
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[768]]"
    return h @ w.T


x = head(torch.randn(2, 5, 768), torch.randn(65, 768))
reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5], Literal[65]]"


# Used bare, a generic alias has unknown sizes, as mypy reads any generic alias (red team 10).
def residual(h: Hidden) -> Hidden:
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[Any, Any, Literal[768]]"
    return h + 1


# An alias of a tuple of shaped tensors (an RNN state) binds its type variables as mypy does.
State = tuple[Tensor[B, T], Tensor[B, T]]


def step(x: Tensor[B, T], s: State[B, T]) -> State[B, T]:
    h, c = s
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    return h + x, c


y, _ = step(torch.randn(2, 3), (torch.zeros(2, 3), torch.zeros(2, 3)))
reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
