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
