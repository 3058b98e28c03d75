"""Fixed sizes: `Tensor[32, 768]` is a tensor of exactly that shape."""

from typing import reveal_type

import torch

from tyr import Tensor

x: Tensor[32, 768] = torch.randn(32, 768)
reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Literal[32], Literal[768]]"
y: Tensor[32, 512] = x  # E: Incompatible types in assignment
