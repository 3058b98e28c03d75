"""Modules tyr has no rule for stay usable and typed as before (calls give `Any`)."""

from typing import reveal_type

import torch
from torch import nn

lstm = nn.LSTM(8, 16, batch_first=True)
out, (h, c) = lstm(torch.randn(2, 5, 8))
reveal_type(out)  # N: Revealed type is "Any"
bilinear = nn.Bilinear(3, 4, 5)
reveal_type(bilinear(torch.randn(2, 3), torch.randn(2, 4)))  # N: Revealed type is "Any"
reveal_type(bilinear.weight)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
