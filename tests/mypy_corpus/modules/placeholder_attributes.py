"""An attribute set to an empty tensor (`torch.tensor([])`, `torch.empty(0)`) is a placeholder that
code elsewhere replaces (an inference engine binds a cache, `load_state_dict` fills a buffer): its
shape is unknown, so using it as the tensor it will be is no error.  An attribute set once to a
tensor with sizes keeps them."""

from typing import reveal_type

import torch
from torch import nn


class PagedAttention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.kv_cache = (torch.tensor([]), torch.tensor([]))  # bound by the engine before the first call
        self.register_buffer("scale", torch.empty(0), persistent=True)
        self.slopes = torch.empty(0)
        self.cls = nn.Parameter(torch.zeros(1, 1, 8))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        conv_state = self.kv_cache[0].transpose(-1, -2)
        reveal_type(self.kv_cache)  # N: Revealed type is "tuple[torch._tensor.Tensor[*tuple[Any, ...]], torch._tensor.Tensor[*tuple[Any, ...]]]"
        reveal_type(self.slopes)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
        reveal_type(self.cls)  # N: Revealed type is "torch.nn.parameter.Parameter[Literal[1], Literal[1], Literal[8]]"
        return x + conv_state.sum() + self.slopes[:, None].sum()
