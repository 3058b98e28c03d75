"""Batch dims of a batched matmul must broadcast."""

import torch

x = torch.zeros(2, 3, 4)
y = torch.zeros(5, 4, 6)
x @ y  # E: dimension 0 of the left operand (2) does not broadcast with dimension 0 of the right operand (5)  [tyr-shape]
