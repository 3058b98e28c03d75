from typing import reveal_type

import torch

from generic_function.lib import halves, linear

reveal_type(linear(torch.randn(4, 8), torch.randn(2, 8)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[2]]"
