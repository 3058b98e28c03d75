"""A whole CNN as one `nn.Sequential` (in a file that imports tyr: elsewhere a module call is torch's `Any`)."""

from typing import reveal_type

import torch
from torch import nn

from tyr import Tensor

net = nn.Sequential(
    nn.Conv2d(1, 8, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Conv2d(8, 16, 3, padding=1),
    nn.ReLU(),
    nn.MaxPool2d(2),
    nn.Flatten(),
    nn.Linear(16 * 7 * 7, 10),
)
images: Tensor[5, 1, 28, 28] = torch.randn(5, 1, 28, 28)
reveal_type(net(images))  # N: Revealed type is "torch._tensor.Tensor[Literal[5], Literal[10]]"
net(torch.randn(5, 1, 32, 32))  # E: layer 7 of nn.Sequential: linear: dimension 1 of the input (1024) does not match dimension 1 of the weight (784)  [tyr-shape]
