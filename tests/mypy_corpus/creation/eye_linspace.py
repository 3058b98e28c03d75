"""`eye(n, m)` and `linspace(start, end, steps)`."""

from typing import reveal_type

import torch

reveal_type(torch.eye(3))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[3]]"
reveal_type(torch.eye(3, 5))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[5]]"
reveal_type(torch.linspace(0.0, 1.0, 11))  # N: Revealed type is "torch._tensor.Tensor[Literal[11]]"
