"""SHAPES.md §6: `x = block(x)` in a loop."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


def run(x: Tensor[B, 16], blocks: nn.ModuleList) -> None:
    for block in blocks:
        x = block(x)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]] | Any"
    x.view(-1)  # no union with the old shape left behind: x's shape is unknown after the loop
    layers = [nn.Linear(16, 16), nn.Linear(16, 16)]
    y = torch.zeros(3, 16)
    for layer in layers:
        y = layer(y)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[16]]"
