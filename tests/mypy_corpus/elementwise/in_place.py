"""In-place ops keep the receiver's shape; the other operand must broadcast to it without growing it."""

import torch

x = torch.zeros(4, 3)
x += torch.ones(3)
x.mul_(torch.ones(4, 1))
x.add_(torch.ones(2, 4, 3))  # E: add_: shape (2, 4, 3) has more dimensions than the target (4, 3)  [tyr-shape]
