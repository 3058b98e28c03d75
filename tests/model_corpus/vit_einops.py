"""ViT written with einops, the way vit-pytorch writes it: a `Rearrange` layer cuts the patches,
`rearrange` splits and merges the heads, `repeat` makes the class tokens, `reduce` pools.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange, reduce, repeat
from einops.layers.torch import Rearrange
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")
K = TypeVar("K")
Hi = TypeVar("Hi")
Wi = TypeVar("Wi")


@checked
class FeedForward(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], hidden_dim: int) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(dim), nn.Linear(dim, hidden_dim), nn.GELU(), nn.Linear(hidden_dim, dim)
        )

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        return self.net(x)


@checked
class Attention(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], heads: int = 8, dim_head: int = 64) -> None:
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head**-0.5
        self.norm = nn.LayerNorm(dim)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        x = self.norm(x)
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = dots.softmax(dim=-1)
        out = torch.matmul(attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


@checked
class ViT(nn.Module, Generic[D, K]):
    def __init__(self, *, image_size: int, patch_size: int, num_classes: Dim[K], dim: Dim[D], depth: int,
                 heads: int, mlp_dim: int, channels: int = 3, dim_head: int = 64, pool: str = "cls") -> None:
        super().__init__()
        num_patches = (image_size // patch_size) ** 2
        patch_dim = channels * patch_size * patch_size
        self.pool = pool
        self.to_patch_embedding = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch_size, p2=patch_size),
            nn.LayerNorm(patch_dim),
            nn.Linear(patch_dim, dim),
            nn.LayerNorm(dim),
        )
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.layers = nn.ModuleList(
            [nn.ModuleList([Attention(dim, heads, dim_head), FeedForward(dim, mlp_dim)]) for _ in range(depth)]
        )
        self.norm = nn.LayerNorm(dim)
        self.mlp_head = nn.Linear(dim, num_classes)

    def forward(self, img: Tensor[B, 3, Hi, Wi]) -> Tensor[B, K]:
        x = self.to_patch_embedding(img)
        b, n, _ = x.shape
        cls_tokens = repeat(self.cls_token, "1 1 d -> b 1 d", b=b)
        x = torch.cat((cls_tokens, x), dim=1)
        x = x + self.pos_embedding[:, : (n + 1)]
        for attn, ff in self.layers:
            x = attn(x) + x
            x = ff(x) + x
        x = reduce(x, "b n d -> b d", "mean") if self.pool == "mean" else x[:, 0]
        return self.mlp_head(self.norm(x))


def demo() -> None:
    model = ViT(image_size=16, patch_size=4, num_classes=10, dim=32, depth=2, heads=4, mlp_dim=64, dim_head=8)
    img = torch.randn(2, 3, 16, 16)
    logits = model(img)
    assert logits.shape == (2, 10)
    F.cross_entropy(logits, torch.tensor([0, 1])).backward()
    pooled = ViT(image_size=16, patch_size=8, num_classes=3, dim=16, depth=1, heads=2, mlp_dim=32, pool="mean")
    assert pooled(img).shape == (2, 3)
