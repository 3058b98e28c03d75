"""A subclass of a torch module that keeps its forward keeps its shape rule (its sizes unknown here)."""

from typing import reveal_type

import torch
from torch import nn

from tyr import Tensor


class Scaled(nn.Linear):
    pass


layer = Scaled(4, 3)
x: Tensor[2, 4] = torch.randn(2, 4)
reveal_type(layer(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Any]"
