"""Reducing a dim that does not exist, or the same dim twice."""

import torch

x = torch.zeros(2, 3)
x.sum(2)  # E: sum: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
x.mean(dim=(0, 0))  # E: mean  [tyr-shape]
