"""A forward annotated with the bare `Tensor`: the call is typed (`Tensor`), shapes unknown."""

from typing import reveal_type

import torch
from torch import nn


class Plain(nn.Module):
    def forward(self, x: torch.Tensor, scale: float = 1.0) -> torch.Tensor:
        return x * scale


m = Plain()
reveal_type(m(torch.randn(2, 4)))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
m(torch.randn(2, 4), "2")  # E: Argument 2 to "forward" of "Plain" has incompatible type "str"; expected "float"  [arg-type]
