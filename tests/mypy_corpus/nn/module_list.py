"""`nn.ModuleList` of one module type: iterating gives that type."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

layers = nn.ModuleList([nn.Linear(32, 32) for _ in range(4)])
reveal_type(layers)  # N: Revealed type is "torch.nn.modules.container.ModuleList[torch.nn.modules.linear.Linear[Literal[32], Literal[32]]]"


def run(x: Tensor[B, 32]) -> Tensor[B, 32]:
    for layer in layers:
        x = layer(x)
    reveal_type(layers[0])  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[32], Literal[32]]"
    return x


empty = nn.ModuleList()
empty.append(nn.ReLU())
