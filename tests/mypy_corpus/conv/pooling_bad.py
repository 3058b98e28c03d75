"""A pooling window larger than the input leaves nothing."""

import torch
import torch.nn.functional as F

F.max_pool2d(torch.zeros(1, 1, 2, 2), 3)  # E: max_pool2d  [tyr-shape]
F.avg_pool2d(torch.zeros(1, 1, 4, 4), 2, padding=2)  # E: avg_pool2d  [tyr-shape]
