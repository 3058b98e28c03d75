"""A broken chain in `nn.Sequential`: the error names the layer."""

import torch
from torch import nn

net = nn.Sequential(nn.Linear(784, 256), nn.ReLU(), nn.Linear(128, 10))
net(torch.randn(4, 784))  # E: layer 2 of nn.Sequential: linear: dimension 1 of the input (256) does not match dimension 1 of the weight (128) (in Linear[128, 10])  [tyr-shape]
