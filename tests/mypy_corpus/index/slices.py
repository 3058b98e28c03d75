"""Slices with constant bounds have provable lengths."""

from typing import reveal_type

import torch

x = torch.zeros(10, 8)
reveal_type(x[2:5])  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[8]]"
reveal_type(x[::2, 1:])  # N: Revealed type is "torch._tensor.Tensor[Literal[5], Literal[7]]"
reveal_type(x[-3:])  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[8]]"
reveal_type(x[:100])  # N: Revealed type is "torch._tensor.Tensor[Literal[10], Literal[8]]"
