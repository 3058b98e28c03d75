"""`zeros`, `ones`, `empty` and `full` take their sizes the same ways."""

from typing import reveal_type

import torch

reveal_type(torch.zeros(2, 3))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
reveal_type(torch.ones([4, 5]))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[5]]"
reveal_type(torch.empty(7))  # N: Revealed type is "torch._tensor.Tensor[Literal[7]]"
reveal_type(torch.full((2, 2), 0.5))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[2]]"
reveal_type(torch.zeros(2, 3, dtype=torch.long))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
