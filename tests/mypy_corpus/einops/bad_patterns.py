"""einops calls that fail at runtime are errors on their line."""

from typing import TypeVar

from einops import einsum, pack, rearrange, reduce, repeat
from einops.layers.torch import Rearrange, Reduce
from torch import nn

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")


def bad(x: Tensor[B, N, 10]) -> None:
    rearrange(x, "b n (h d) -> b h n d", h=3)  # E: rearrange: dim (h d) of 'b n (h d) -> b h n d' has size 10, which is not a multiple of 3  [tyr-shape]
    rearrange(x, "b n d -> b d")  # E: axes n appear on one side only  [tyr-shape]
    rearrange(x, "b d -> d b")  # E: expects 2 dims but the tensor (B, N, 10) has 3  [tyr-shape]
    rearrange(x, "b n d -> b n d", d=12)  # E: has size 10, but its axes' lengths multiply to 12  [tyr-shape]
    repeat(x, "b n d -> b n k d")  # E: give the lengths of the new axes k  [tyr-shape]
    reduce(x, "b n d -> b d", "average")  # E: unknown reduction 'average'  [tyr-shape]


patchify = Rearrange("b c (h p) (w p) -> b (h w) (p p c)", p=16)  # E: axis 'p' appears twice  [tyr-shape]
embed = nn.Sequential(
    Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16),
    nn.Linear(3 * 16 * 16, 512),
)


def embed_grey(img: Tensor[B, 1, 224, 224]) -> None:
    embed(img)  # E: layer 1 of nn.Sequential: linear: dimension 2 of the input (256) does not match dimension 1 of the weight (768)  [tyr-shape]


pool_head = nn.Sequential(Reduce("b n d -> b d", "mean"), nn.Linear(256, 10))


def more_bugs(x: Tensor[B, N, 512], y: Tensor[B, N, 256], cls: Tensor[B, 512]) -> None:
    pool_head(x)  # E: layer 1 of nn.Sequential: linear: dimension 1 of the input (512) does not match dimension 1 of the weight (256)  [tyr-shape]
    einsum(x, y, "b i d, b j d -> b i j")  # E: einsum: axis d is 512 at dimension 2 of operand 0 but 256 at dimension 2 of operand 1  [tyr-shape]
    pack([cls, y], "b * d")  # E: pack: 'b * d': sizes must match except in dimension 1  [tyr-shape]
