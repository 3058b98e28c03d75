"""`Literal` sizes are the same as int sizes: `Tensor[Literal[32], Literal[768]]` is `Tensor[32, 768]`."""

from typing import Literal, reveal_type

import torch

from tyr import Tensor

x: Tensor[Literal[32], Literal[768]] = torch.randn(32, 768)
y: Tensor[32, 768] = x
reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Literal[32], Literal[768]]"
