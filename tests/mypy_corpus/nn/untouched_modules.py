"""At the top level of a file that imports neither tyr nor jaxtyping, a module's call gives torch's `Any`, as
before (LSTM and Bilinear have rules now; a module tyr has no rule for, `EmbeddingBag`, gives `Any` anywhere);
a sized module's weight has its sizes, as `nn.Linear`'s has."""

from typing import reveal_type

import torch
from torch import nn

lstm = nn.LSTM(8, 16, batch_first=True)
out, (h, c) = lstm(torch.randn(2, 5, 8))
reveal_type(out)  # N: Revealed type is "Any"
bilinear = nn.Bilinear(3, 4, 5)
reveal_type(bilinear(torch.randn(2, 3), torch.randn(2, 4)))  # N: Revealed type is "Any"
reveal_type(bilinear.weight)  # N: Revealed type is "torch._tensor.Tensor[Literal[5], Literal[3], Literal[4]]"
bag = nn.EmbeddingBag(10, 3)
reveal_type(bag(torch.zeros(2, 4, dtype=torch.long)))  # N: Revealed type is "Any"
