"""`nn.Parameter` is generic in its shape, as `Tensor` is (tyr's stub): it keeps its data's shape."""

from typing import reveal_type

import torch
from torch import nn

p = nn.Parameter(torch.zeros(3, 4))
reveal_type(p)  # N: Revealed type is "torch.nn.parameter.Parameter[Literal[3], Literal[4]]"
reveal_type(p * 2)  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[4]]"
reveal_type(p.T)  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[3]]"
reveal_type(p.shape)  # N: Revealed type is "tuple[Literal[3], Literal[4], fallback=torch._C.Size]"
