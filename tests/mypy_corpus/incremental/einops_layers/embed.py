"""einops layers and packed shapes that other modules use: their patterns and shapes come back from the cache."""

import torch
from einops import pack
from einops.layers.torch import Rearrange, Reduce
from torch import nn

from tyr import Tensor

patchify = nn.Sequential(
    Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4),
    nn.Linear(48, 64),
)
pool = Reduce("b n d -> b d", "max")

cls: Tensor[2, 64] = torch.randn(2, 64)
tokens: Tensor[2, 16, 64] = torch.randn(2, 16, 64)
packed, packed_shapes = pack([cls, tokens], "b * d")
