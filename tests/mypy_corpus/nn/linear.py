"""`nn.Linear(784, 256)` is `Linear[784, 256]`; calling it runs the `F.linear` rule."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

fc = nn.Linear(784, 256)
reveal_type(fc)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[784], Literal[256]]"
x: Tensor[32, 784] = torch.randn(32, 784)
reveal_type(fc(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[32], Literal[256]]"
reveal_type(fc(torch.randn(2, 5, 784)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5], Literal[256]]"
fc(torch.randn(32, 100))  # E: linear: dimension 1 of the input (100) does not match dimension 1 of the weight (784) (in Linear[784, 256])  [tyr-shape]
no_bias = nn.Linear(10, 2, bias=False)
reveal_type(no_bias)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[10], Literal[2]]"
