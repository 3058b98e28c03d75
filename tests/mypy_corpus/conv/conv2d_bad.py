"""Channels must match the weight; the kernel must fit in the padded input."""

import torch
import torch.nn.functional as F

x = torch.zeros(1, 3, 8, 8)
F.conv2d(x, torch.zeros(4, 5, 3, 3))  # E: conv2d  [tyr-shape]
F.conv2d(x, torch.zeros(4, 3, 9, 9))  # E: conv2d  [tyr-shape]
F.conv2d(torch.zeros(3, 8), torch.zeros(4, 3, 3, 3))  # E: conv2d  [tyr-shape]
