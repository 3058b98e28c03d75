"""Containers of modules are typed as torch types them wherever no shape is involved.

An `nn.ModuleList` of modules whose call gives no shape holds `Module`s (not the class
that built them, whose methods torch's types never show), and `seq[i]` of an
`nn.Sequential` is a `Module`, so code sees what it saw without tyr.
"""

from typing import reveal_type

import torch
from torch import nn


class Block(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        self.fc = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x

    def resize(self, size: tuple[int, int]) -> None:
        pass


class Net(nn.Module):
    def __init__(self, dim: int, depth: int) -> None:
        super().__init__()
        self.blocks = nn.ModuleList([Block(dim) for _ in range(depth)])
        self.stem = nn.Sequential(nn.Linear(dim, dim), nn.ReLU())

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        reveal_type(self.blocks[0])  # N: Revealed type is "torch.nn.modules.module.Module"
        reveal_type(self.stem[0])  # N: Revealed type is "torch.nn.modules.module.Module"
        reveal_type(self.stem[1:])  # N: Revealed type is "torch.nn.modules.module.Module"
        for block in self.blocks:
            x = block(x)
        return x
