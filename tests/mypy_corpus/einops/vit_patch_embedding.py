"""vit-pytorch's patch embedding: `Rearrange` in `nn.Sequential`, then the cls token and positions."""

from typing import Generic, TypeVar, reveal_type

import torch
from einops import repeat
from einops.layers.torch import Rearrange
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
P = TypeVar("P")
D = TypeVar("D")


class PatchEmbedding(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.to_patch_embedding = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16),
            nn.LayerNorm(768),
            nn.Linear(768, 512),
            nn.LayerNorm(512),
        )
        self.cls_token = nn.Parameter(torch.randn(1, 1, 512))

    def forward(self, img: Tensor[B, 3, 224, 224]) -> Tensor[B, 197, 512]:
        x = self.to_patch_embedding(img)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[196], Literal[512]]"
        b, n, _ = x.shape
        cls_tokens = repeat(self.cls_token, "1 1 d -> b 1 d", b=b)  # einops' type: the input's class
        reveal_type(cls_tokens)  # N: Revealed type is "torch.nn.parameter.Parameter[B, Literal[1], Literal[512]]"
        return torch.cat((cls_tokens, x), dim=1)


class GenericPatchEmbedding(nn.Module, Generic[C, P, D]):
    """The same with sizes from the constructor: the patch count is (H//P)*(W//P)."""

    def __init__(self, channels: Dim[C], patch: Dim[P], dim: Dim[D]) -> None:
        super().__init__()
        self.to_patch_embedding = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch, p2=patch),
            nn.Linear(channels * patch * patch, dim),
        )

    def forward(self, img: Tensor[B, C, "4*P", "2*P"]) -> Tensor[B, 8, D]:
        return self.to_patch_embedding(img)


layer = Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)
reveal_type(layer)  # N: Revealed type is "einops.layers.torch.Rearrange[Literal['b c (h p1) (w p2) -> b (h w) (p1 p2 c)'], Literal['p1'], Literal[16], Literal['p2'], Literal[16]]"
