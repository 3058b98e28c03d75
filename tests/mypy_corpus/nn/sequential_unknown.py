"""`nn.Sequential(*layers)` of a list: its output is unknown, as without tyr (no error)."""

from typing import reveal_type

import torch
from torch import nn

layers: list[nn.Module] = [nn.Linear(4, 4) for _ in range(3)]
net = nn.Sequential(*layers)
reveal_type(net(torch.randn(2, 4)))  # N: Revealed type is "Any"
