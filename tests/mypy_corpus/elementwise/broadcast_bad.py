"""Sizes that are neither equal nor 1 do not broadcast: the error names both dims and sizes."""

import torch

a = torch.zeros(4, 3)
b = torch.zeros(5, 3)
a + b  # E: +: dimension 0 of the left operand (4) does not broadcast with dimension 0 of the right operand (5)  [tyr-shape]
