"""In-place ops keep the receiver's shape; the other operand must broadcast to it without growing it."""

from typing import reveal_type

import torch

x = torch.zeros(4, 3)
x += torch.ones(3)
x.mul_(torch.ones(4, 1))
x.add_(torch.ones(2, 4, 3))  # E: add_: shape (2, 4, 3) has more dimensions than the target (4, 3)  [tyr-shape]

reveal_type(x.copy_(torch.ones(3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[3]]"
x.copy_(torch.ones(4, 1))
x.copy_(torch.ones(5))  # E: copy_: dimension 0 of the operand (5) does not broadcast with dimension 1 of the target (3); shapes (5,) and (4, 3)  [tyr-shape]
x.copy_(torch.ones(2, 4, 3))  # E: copy_: shape (2, 4, 3) has more dimensions than the target (4, 3)  [tyr-shape]
