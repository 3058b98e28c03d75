"""`nn.Sequential` chains its layers' shape rules."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 10))
reveal_type(net)  # N: Revealed type is "torch.nn.modules.container.Sequential[torch.nn.modules.linear.Linear[Literal[784], Literal[256]], torch.nn.modules.activation.ReLU, torch.nn.modules.linear.Linear[Literal[256], Literal[10]]]"


def run(x: Tensor[B, 784]) -> Tensor[B, 10]:
    return net(x)
