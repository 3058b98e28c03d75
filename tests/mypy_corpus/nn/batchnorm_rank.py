"""`nn.BatchNorm2d` takes 4-D inputs only; `nn.BatchNorm1d` 2-D or 3-D ones."""

import torch
from torch import nn

nn.BatchNorm1d(8)(torch.zeros(4, 8, 10))
nn.BatchNorm2d(8)(torch.zeros(4, 8, 10))  # E: batch_norm2d: expected a 4D input, got (4, 8, 10)  [tyr-shape]
nn.BatchNorm1d(8)(torch.zeros(4, 8, 2, 2))  # E: batch_norm1d: expected a 2D or 3D input, got (4, 8, 2, 2)  [tyr-shape]
