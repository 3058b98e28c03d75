"""CLIP: an image tower (ViT) and a text tower (causal transformer), projected to one space, contrastive logits.

The tower widths come from a plain dataclass config; the towers are generic in their width and
the joint embedding width is a type parameter of the model (`CLIP[E]`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
Bt = TypeVar("Bt")  # texts in the batch
N = TypeVar("N")
L = TypeVar("L")  # text length
R = TypeVar("R")  # image side
W = TypeVar("W")  # tower width
E = TypeVar("E")  # joint embedding width


@dataclass(frozen=True)
class CLIPConfig:
    image_size: int = 32
    patch_size: int = 8
    vision_width: int = 48
    vision_layers: int = 2
    context_length: int = 12
    vocab_size: int = 100
    text_width: int = 32
    text_layers: int = 2
    heads: int = 4


@checked
class ResidualAttentionBlock(nn.Module, Generic[W]):
    def __init__(self, width: Dim[W], heads: int, causal: bool) -> None:
        super().__init__()
        self.causal = causal
        self.ln_1 = nn.LayerNorm(width)
        self.attn = nn.MultiheadAttention(width, heads, batch_first=True)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width))

    def forward(self, x: Tensor[B, N, W]) -> Tensor[B, N, W]:
        n = x.shape[1]
        mask = torch.full((n, n), float("-inf")).triu(1) if self.causal else None
        h = self.ln_1(x)
        x = x + self.attn(h, h, h, attn_mask=mask, need_weights=False)[0]
        return x + self.mlp(self.ln_2(x))


@checked
class VisionTransformer(nn.Module, Generic[W, E]):
    def __init__(self, image_size: int, patch_size: int, width: Dim[W], layers: int, heads: int,
                 output_dim: Dim[E]) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, width, kernel_size=patch_size, stride=patch_size, bias=False)
        scale = width**-0.5
        self.class_embedding = nn.Parameter(scale * torch.randn(width))
        self.positional_embedding = nn.Parameter(scale * torch.randn((image_size // patch_size) ** 2 + 1, width))
        self.ln_pre = nn.LayerNorm(width)
        self.blocks = nn.Sequential(*[ResidualAttentionBlock(width, heads, causal=False) for _ in range(layers)])
        self.ln_post = nn.LayerNorm(width)
        self.proj = nn.Parameter(scale * torch.randn(width, output_dim))

    def forward(self, x: Tensor[B, 3, R, R]) -> Tensor[B, E]:
        x = self.conv1(x)  # (B, W, grid, grid)
        x = x.reshape(x.shape[0], x.shape[1], -1)  # (B, W, grid**2)
        x = x.permute(0, 2, 1)  # (B, grid**2, W)
        cls = self.class_embedding.to(x.dtype) + torch.zeros(x.shape[0], 1, x.shape[-1], dtype=x.dtype)
        x = torch.cat([cls, x], dim=1)  # (B, grid**2 + 1, W)
        x = x + self.positional_embedding.to(x.dtype)
        x = self.blocks(self.ln_pre(x))
        x = self.ln_post(x[:, 0, :])
        return x @ self.proj


@checked
class TextTransformer(nn.Module, Generic[W, E]):
    def __init__(self, vocab_size: int, context_length: int, width: Dim[W], layers: int, heads: int,
                 output_dim: Dim[E]) -> None:
        super().__init__()
        self.token_embedding = nn.Embedding(vocab_size, width)
        self.positional_embedding = nn.Parameter(torch.empty(context_length, width))
        self.blocks = nn.ModuleList([ResidualAttentionBlock(width, heads, causal=True) for _ in range(layers)])
        self.ln_final = nn.LayerNorm(width)
        self.text_projection = nn.Parameter(torch.empty(width, output_dim))
        nn.init.normal_(self.positional_embedding, std=0.01)
        nn.init.normal_(self.text_projection, std=width**-0.5)

    def forward(self, text: Tensor[Bt, L]) -> Tensor[Bt, E]:
        x = self.token_embedding(text)  # (Bt, L, W)
        x = x + self.positional_embedding[: text.shape[1]]
        for block in self.blocks:
            x = block(x)
        x = self.ln_final(x)
        # features of the end-of-text token (the highest id in each sequence)
        x = x[torch.arange(x.shape[0]), text.argmax(dim=-1)]
        return x @ self.text_projection


@checked
class CLIP(nn.Module, Generic[E]):
    def __init__(self, config: CLIPConfig, embed_dim: Dim[E]) -> None:
        super().__init__()
        c = config
        self.visual = VisionTransformer(c.image_size, c.patch_size, c.vision_width, c.vision_layers, c.heads, embed_dim)
        self.text = TextTransformer(c.vocab_size, c.context_length, c.text_width, c.text_layers, c.heads, embed_dim)
        self.logit_scale = nn.Parameter(torch.ones([]) * math.log(1 / 0.07))

    def forward(self, image: Tensor[B, 3, R, R], text: Tensor[Bt, L]) -> tuple[Tensor[B, Bt], Tensor[Bt, B]]:
        image_features = F.normalize(self.visual(image), dim=-1)
        text_features = F.normalize(self.text(text), dim=-1)
        logits_per_image = self.logit_scale.exp() * image_features @ text_features.t()
        return logits_per_image, logits_per_image.t()


def contrastive_loss(logits_per_image: Tensor[B, B], logits_per_text: Tensor[B, B]) -> Tensor[()]:
    labels = torch.arange(logits_per_image.shape[0])
    return (F.cross_entropy(logits_per_image, labels) + F.cross_entropy(logits_per_text, labels)) / 2


def demo() -> None:
    config = CLIPConfig()
    model = CLIP(config, embed_dim=16)
    images = torch.randn(3, 3, 32, 32)
    texts = torch.randint(0, 99, (3, 7))
    logits_per_image, logits_per_text = model(images, texts)
    contrastive_loss(logits_per_image, logits_per_text).backward()
    zero_shot, _ = model(images, torch.randint(0, 99, (5, 7)))  # three images against five captions
    assert zero_shot.shape == (3, 5)
