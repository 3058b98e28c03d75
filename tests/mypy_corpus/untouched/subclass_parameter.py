"""`nn.Parameter` and other Tensor subclasses are tensors of unknown shape."""

from typing import reveal_type

import torch
from torch import nn

p = nn.Parameter(torch.zeros(3, 4))
reveal_type(p)  # N: Revealed type is "torch.nn.parameter.Parameter"
reveal_type(p * 2)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
reveal_type(p.T)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
reveal_type(p.shape)  # N: Revealed type is "torch._C.Size"
