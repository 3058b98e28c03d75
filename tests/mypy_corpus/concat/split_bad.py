"""Sections must add up to the dim's size; unpacking into the wrong number of names."""

import torch

y = torch.zeros(4, 10)
y.split([3, 8], dim=1)  # E: split: section sizes  [tyr-shape]
a, b, c = y.chunk(2, dim=1)  # E: Need more than 2 values to unpack (3 expected)  [misc]
