"""SHAPES.md §6: `x = layer(x)` over layers of different widths leaves no union of old and new shapes.

mypy cannot know that a loop runs or which branch is taken: the path that skips the rebinding
holds what its shape shares with the new value, so a later check finds no stale shape.
"""

from typing import TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.widen = nn.ModuleList([nn.Linear(16, 32), nn.Linear(32, 32)])
        self.narrow = nn.ModuleList([nn.Linear(16, 32), nn.Linear(32, 8)])
        self.proj: nn.Linear[16, 32] | None = nn.Linear(16, 32)

    def last_width_known(self, x: Tensor[B, 16]) -> Tensor[B, 32]:
        for layer in self.widen:
            x = layer(x)
        return x

    def through_an_alias(self, x: Tensor[B, 16]) -> Tensor[B, 8]:
        h = x
        for layer in self.narrow:
            h = F.relu(layer(h))
        return h

    def optional_projection(self, x: Tensor[B, 16]) -> Tensor[B, 32]:
        if self.proj is not None:
            x = self.proj(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]] | torch._tensor.Tensor[B, Any]"
        return x

    def same_shape_kept(self, x: Tensor[B, 16]) -> Tensor[B, 16]:
        if self.training:
            x = x * 2
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16]]"
        return x
