"""vit-pytorch's ViT, annotated: einops layers and functions through a whole model check clean.

The `no-any-return` error is plain mypy's too (strict): calling a module whose shape tyr cannot
know is torch's `(...) -> Any`, with or without tyr.  (`self.mlp_head(x)` is a `Linear` whose output
size tyr knows: in a file that imports tyr, its result is the tensor, and plain mypy's second
`no-any-return` is gone.)
"""

from typing import Generic, TypeVar, reveal_type

import torch
from einops import rearrange, repeat
from einops.layers.torch import Rearrange
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")


class FeedForward(nn.Module):
    def __init__(self, dim: int, hidden_dim: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.LayerNorm(dim),
            nn.Linear(dim, hidden_dim),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(hidden_dim, dim),
            nn.Dropout(dropout),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.net(x)  # E: Returning Any from function declared to return "Tensor[*tuple[Any, ...]]"  [no-any-return]


class Attention(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], heads: int = 8, dim_head: int = 64, dropout: float = 0.0) -> None:
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head**-0.5
        self.norm = nn.LayerNorm(dim)
        self.attend = nn.Softmax(dim=-1)
        self.dropout = nn.Dropout(dropout)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, dim), nn.Dropout(dropout))

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        x = self.norm(x)
        qkv = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=self.heads), qkv)
        dots = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = self.dropout(self.attend(dots))
        out = torch.matmul(attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


class ViT(nn.Module):
    def __init__(self, *, patch: int, num_patches: int, num_classes: int, dim: Dim[D], depth: int) -> None:
        super().__init__()
        patch_dim = 3 * patch * patch
        self.to_patch_embedding = nn.Sequential(
            Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch, p2=patch),
            nn.LayerNorm(patch_dim),
            nn.Linear(patch_dim, dim),
            nn.LayerNorm(dim),
        )
        self.pos_embedding = nn.Parameter(torch.randn(1, num_patches + 1, dim))
        self.cls_token = nn.Parameter(torch.randn(1, 1, dim))
        self.layers = nn.ModuleList([Attention(dim) for _ in range(depth)])
        self.mlp_head = nn.Linear(dim, num_classes)

    def forward(self, img: torch.Tensor) -> torch.Tensor:
        x = self.to_patch_embedding(img)
        b, n, _ = x.shape
        cls_tokens = repeat(self.cls_token, "1 1 d -> b 1 d", b=b)
        x = torch.cat((cls_tokens, x), dim=1)
        x += self.pos_embedding[:, : (n + 1)]
        for attn in self.layers:
            x = attn(x) + x
        x = x.mean(dim=1)
        return self.mlp_head(x)


model = ViT(patch=16, num_patches=196, num_classes=10, dim=512, depth=6)
reveal_type(model(torch.randn(2, 3, 224, 224)))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
