"""A forward annotated with the bare `Tensor` has no shapes: the call is torch's `(...) -> Any`, as without tyr."""

from typing import reveal_type

import torch
from torch import nn


class Plain(nn.Module):
    def forward(self, x: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
        return x * scale


m = Plain()
reveal_type(m(torch.randn(2, 4)))  # N: Revealed type is "Any"
m(torch.randn(2, 4), "2")  # plain mypy checks no argument of a module call, and neither does tyr here
