"""DeiT: a ViT with a class token and a distillation token, and a head for each.

Sizes are type parameters (`DeiT[I, P, D, K]`): image side, patch side, width, classes.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")
I = TypeVar("I")  # noqa: E741 - image side
P = TypeVar("P")  # patch side
D = TypeVar("D")
Nh = TypeVar("Nh")
K = TypeVar("K")


@checked
class Block(nn.Module, Generic[D, Nh]):
    def __init__(self, dim: Dim[D], heads: Dim[Nh]) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))

    def attention(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        b, n, d = x.shape
        q, k, v = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1)) * (d // self.heads) ** -0.5
        attn = attn.softmax(dim=-1)
        out = (attn @ v).transpose(1, 2).reshape(b, n, d)
        return self.proj(out)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        x = x + self.attention(self.norm1(x))
        return x + self.mlp(self.norm2(x))


@checked
class DeiT(nn.Module, Generic[I, P, D, K]):
    def __init__(self, image_size: Dim[I], patch_size: Dim[P], dim: Dim[D], depth: int, heads: int,
                 num_classes: Dim[K]) -> None:
        super().__init__()
        num_patches = (image_size // patch_size) * (image_size // patch_size)
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch_size, stride=patch_size)
        self.cls_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.dist_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches + 2, dim))
        self.blocks = nn.Sequential(*[Block(dim, heads) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)
        self.head_dist = nn.Linear(dim, num_classes)
        nn.init.trunc_normal_(self.pos_embed, std=0.02)

    def forward_features(self, img: Tensor[B, 3, I, I]) -> tuple[Tensor[B, D], Tensor[B, D]]:
        x = self.patch_embed(img).flatten(2).transpose(1, 2)  # (B, N, D)
        b = x.shape[0]
        cls_tokens = self.cls_token.expand(b, -1, -1)
        dist_token = self.dist_token.expand(b, -1, -1)
        x = torch.cat((cls_tokens, dist_token, x), dim=1)
        x = x + self.pos_embed
        x = self.norm(self.blocks(x))
        return x[:, 0], x[:, 1]

    def forward(self, img: Tensor[B, 3, I, I]) -> tuple[Tensor[B, K], Tensor[B, K]]:
        x, x_dist = self.forward_features(img)
        return self.head(x), self.head_dist(x_dist)

    def predict(self, img: Tensor[B, 3, I, I]) -> Tensor[B, K]:
        """At inference the two heads are averaged."""
        logits, logits_dist = self(img)
        return (logits + logits_dist) / 2


def distillation_loss(
    logits: Tensor[B, K], logits_dist: Tensor[B, K], labels: Tensor[B], teacher_logits: Tensor[B, K]
) -> Tensor[()]:
    """Hard distillation: the class head learns the labels, the distillation head the teacher's choice."""
    return (F.cross_entropy(logits, labels) + F.cross_entropy(logits_dist, teacher_logits.argmax(dim=1))) / 2


def demo() -> None:
    model = DeiT(image_size=16, patch_size=4, dim=32, depth=2, heads=4, num_classes=10)
    img = torch.randn(3, 3, 16, 16)
    logits, logits_dist = model(img)
    distillation_loss(logits, logits_dist, torch.tensor([1, 2, 3]), torch.randn(3, 10)).backward()
    assert model.predict(img).shape == (3, 10)
