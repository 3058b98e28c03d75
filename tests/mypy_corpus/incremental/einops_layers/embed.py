"""einops layers that other modules use: their patterns come back from the cache in their types."""

from einops.layers.torch import Rearrange, Reduce
from torch import nn

patchify = nn.Sequential(
    Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=4, p2=4),
    nn.Linear(48, 64),
)
pool = Reduce("b n d -> b d", "max")
