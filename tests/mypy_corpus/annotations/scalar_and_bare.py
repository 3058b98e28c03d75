"""`Tensor[()]` is a 0-d tensor; the bare `Tensor` has an unknown shape and fits any tensor, both ways."""

from typing import reveal_type

import torch

from tyr import Tensor

s: Tensor[()] = torch.tensor(1.0)
reveal_type(s)  # N: Revealed type is "torch._tensor.Tensor[()]"
u: Tensor = torch.randn(3)
reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
shaped: Tensor[3, 4] = u
back: torch.Tensor = shaped
plain: torch.Tensor = torch.zeros(2)
reveal_type(plain)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
