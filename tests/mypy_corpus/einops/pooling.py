"""Reductions: mean pooling over tokens, 2x2 max pooling, and a `Reduce` head in `nn.Sequential`."""

from typing import TypeVar, reveal_type

from einops import reduce
from einops.layers.torch import Reduce
from torch import nn

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


def pools(x: Tensor[B, N, 512], img: Tensor[B, C, H, W]) -> None:
    reveal_type(reduce(x, "b n d -> b d", "mean"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[512]]"
    reveal_type(reduce(img, "b c (h 2) (w 2) -> b c h w", "max"))  # N: Revealed type is "torch._tensor.Tensor[B, C, tyr._static.DimExpr[Literal['H//2'], H], tyr._static.DimExpr[Literal['W//2'], W]]"
    reveal_type(reduce(img, "b c ... -> b c", "sum"))  # N: Revealed type is "torch._tensor.Tensor[B, C]"
    reveal_type(reduce(img, "b c h w -> b c () ()", "mean"))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[1], Literal[1]]"


head = nn.Sequential(Reduce("b n d -> b d", "mean"), nn.LayerNorm(512), nn.Linear(512, 10))


def classify(x: Tensor[B, N, 512]) -> Tensor[B, 10]:
    return head(x)


def broadcast_back(pooled: Tensor[B, 512]) -> Tensor[B, 16, 512]:
    """A `Reduce` layer takes "repeat" (and "rearrange") too: einops has no `Repeat` layer."""
    return Reduce("b d -> b n d", "repeat", n=16)(pooled)
