"""Dims out of range, and a permutation that is not one."""

import torch

x = torch.zeros(2, 3, 4)
x.transpose(0, 3)  # E: transpose: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]
x.permute(0, 1)  # E: permute  [tyr-shape]
x.permute(0, 0, 1)  # E: permute  [tyr-shape]
