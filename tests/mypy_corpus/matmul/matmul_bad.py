"""The contracted dims must agree."""

import torch

a = torch.zeros(3, 4)
b = torch.zeros(5, 6)
a @ b  # E: @: dimension 1 of the left operand (4) does not match dimension 0 of the right operand (5)  [tyr-shape]
torch.matmul(a, b)  # E: matmul: dimension 1 of the left operand (4) does not match dimension 0 of the right operand (5)  [tyr-shape]
