"""A parameter's rows unpacked in code without shape annotations (lucidrains/muse-maskgit-pytorch:
`nk, nv = self.null_kv`, then `nk, nv = map(lambda t: repeat(t, ...), (nk, nv))`).  torch declares
no type for iterating a tensor, so the rows are `Any` there, as without tyr: typed rows made the
second assignment an error plain mypy never gave."""

import torch
from einops import repeat
from torch import nn


class Attention(nn.Module):
    def __init__(self, heads, dim_head):
        super().__init__()
        self.null_kv = nn.Parameter(torch.randn(2, heads, 1, dim_head))

    def forward(self, x):
        nk, nv = self.null_kv
        nk, nv = map(lambda t: repeat(t, "h 1 d -> b h 1 d", b=x.shape[0]), (nk, nv))
        return nk, nv, len(5)  # plain mypy's error
