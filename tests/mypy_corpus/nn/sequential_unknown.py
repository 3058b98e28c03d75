"""`nn.Sequential(*layers)` of a list: its output is unknown, as without tyr (no error)."""

from typing import reveal_type

import torch
from torch import nn

layers: list[nn.Module] = [nn.Linear(4, 4) for _ in range(3)]
net = nn.Sequential(*layers)
reveal_type(net(torch.randn(2, 4)))  # N: Revealed type is "Any"


class ConvBNAct(nn.Sequential):
    """A subclass passes its layers to `super().__init__`: its chain is unknown, not the identity."""

    def __init__(self, cin: int, cout: int) -> None:
        super().__init__(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.SiLU())


class Grown(nn.Sequential):
    def __init__(self) -> None:
        super().__init__()
        self.add_module("conv", nn.Conv2d(3, 8, 1))


reveal_type(ConvBNAct(3, 8)(torch.randn(2, 3, 6, 6)))  # N: Revealed type is "Any"
reveal_type(Grown()(torch.randn(2, 3, 6, 6)))  # N: Revealed type is "Any"
