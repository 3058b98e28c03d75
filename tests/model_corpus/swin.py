"""Swin Transformer: (shifted) window attention with a relative position bias, patch merging.

Window partition / reverse with view and permute, the attention mask of shifted windows, one
stage and a patch merging layer.  Sizes are type parameters bound by `Dim` arguments.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
C = TypeVar("C")
Ws = TypeVar("Ws")  # window size
Nh = TypeVar("Nh")  # heads
Bw = TypeVar("Bw")  # batch times windows
Nw = TypeVar("Nw")  # windows per image
K = TypeVar("K")


def window_partition(x: Tensor[B, H, W, C], window_size: Dim[Ws]) -> Tensor["B*(H//Ws)*(W//Ws)", Ws, Ws, C]:
    B, H, W, C = x.shape
    x = x.view(B, H // window_size, window_size, W // window_size, window_size, C)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(-1, window_size, window_size, C)


def window_reverse(
    windows: Tensor["B*(H//Ws)*(W//Ws)", Ws, Ws, C], window_size: Dim[Ws], H: Dim[H], W: Dim[W]
) -> Tensor[B, H, W, C]:
    B = windows.shape[0] // ((H // window_size) * (W // window_size))
    x = windows.view(B, H // window_size, W // window_size, window_size, window_size, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(B, H, W, -1)


@checked
class WindowAttention(nn.Module, Generic[C, Ws, Nh]):
    relative_position_index: Tensor["Ws*Ws", "Ws*Ws"]

    def __init__(self, dim: Dim[C], window_size: Dim[Ws], num_heads: Dim[Nh]) -> None:
        super().__init__()
        self.num_heads = num_heads
        self.scale = (dim // num_heads) ** -0.5
        self.relative_position_bias_table = nn.Parameter(
            torch.zeros((2 * window_size - 1) * (2 * window_size - 1), num_heads)
        )
        coords = torch.stack(torch.meshgrid(torch.arange(window_size), torch.arange(window_size), indexing="ij"))
        coords_flatten = torch.flatten(coords, 1)  # (2, Ws*Ws)
        relative_coords = coords_flatten[:, :, None] - coords_flatten[:, None, :]  # (2, Ws*Ws, Ws*Ws)
        relative_coords = relative_coords.permute(1, 2, 0).contiguous()  # (Ws*Ws, Ws*Ws, 2)
        relative_coords[:, :, 0] += window_size - 1  # shift to start from 0
        relative_coords[:, :, 1] += window_size - 1
        relative_coords[:, :, 0] *= 2 * window_size - 1
        self.register_buffer("relative_position_index", relative_coords.sum(-1))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)
        nn.init.trunc_normal_(self.relative_position_bias_table, std=0.02)

    def forward(self, x: Tensor[Bw, "Ws*Ws", C], mask: Tensor[Nw, "Ws*Ws", "Ws*Ws"] | None = None) -> Tensor[
        Bw, "Ws*Ws", C
    ]:
        B_, N, C = x.shape
        qkv = self.qkv(x).reshape(B_, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]  # (B_, Nh, N, C//Nh)
        q = q * self.scale
        attn = q @ k.transpose(-2, -1)
        bias = self.relative_position_bias_table[self.relative_position_index.view(-1)].view(N, N, -1)
        bias = bias.permute(2, 0, 1).contiguous()  # (Nh, N, N)
        attn = attn + bias.unsqueeze(0)
        if mask is not None:
            nW = mask.shape[0]
            attn = attn.view(B_ // nW, nW, self.num_heads, N, N) + mask.unsqueeze(1).unsqueeze(0)
            attn = attn.view(-1, self.num_heads, N, N)
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B_, N, C)
        return self.proj(x)


@checked
class SwinBlock(nn.Module, Generic[C, Ws, Nh]):
    attn_mask: Tensor | None

    def __init__(self, dim: Dim[C], resolution: tuple[int, int], num_heads: Dim[Nh], window_size: Dim[Ws],
                 shift: int) -> None:
        super().__init__()
        self.window_size = window_size
        self.shift = shift
        self.norm1 = nn.LayerNorm(dim)
        self.attn = WindowAttention(dim, window_size, num_heads)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(), nn.Linear(4 * dim, dim))
        attn_mask = None
        if shift > 0:  # label each region of the shifted image; windows mix regions only where labels agree
            h, w = resolution
            img_mask = torch.zeros((1, h, w, 1))
            cnt = 0
            for hs in (slice(0, -window_size), slice(-window_size, -shift), slice(-shift, None)):
                for ws in (slice(0, -window_size), slice(-window_size, -shift), slice(-shift, None)):
                    img_mask[:, hs, ws, :] = cnt
                    cnt += 1
            mask_windows = window_partition(img_mask, window_size).view(-1, window_size * window_size)
            attn_mask = mask_windows.unsqueeze(1) - mask_windows.unsqueeze(2)
            attn_mask = attn_mask.masked_fill(attn_mask != 0, -100.0).masked_fill(attn_mask == 0, 0.0)
        self.register_buffer("attn_mask", attn_mask)

    def forward(self, x: Tensor[B, H, W, C]) -> Tensor[B, H, W, C]:
        B, H, W, C = x.shape
        shortcut = x
        x = self.norm1(x)
        if self.shift > 0:
            x = torch.roll(x, shifts=(-self.shift, -self.shift), dims=(1, 2))
        windows = window_partition(x, self.window_size).view(-1, self.window_size * self.window_size, C)
        windows = self.attn(windows, self.attn_mask)
        windows = windows.view(-1, self.window_size, self.window_size, C)
        x = window_reverse(windows, self.window_size, H, W)
        if self.shift > 0:
            x = torch.roll(x, shifts=(self.shift, self.shift), dims=(1, 2))
        x = shortcut + x
        return x + self.mlp(self.norm2(x))


@checked
class PatchMerging(nn.Module, Generic[C]):
    def __init__(self, dim: Dim[C]) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(4 * dim)
        self.reduction = nn.Linear(4 * dim, 2 * dim, bias=False)

    def forward(self, x: Tensor[B, H, W, C]) -> Tensor[B, "H//2", "W//2", "2*C"]:
        x0 = x[:, 0::2, 0::2, :]
        x1 = x[:, 1::2, 0::2, :]
        x2 = x[:, 0::2, 1::2, :]
        x3 = x[:, 1::2, 1::2, :]
        x = torch.cat([x0, x1, x2, x3], -1)  # (B, H/2, W/2, 4C)
        return self.reduction(self.norm(x))


@checked
class TinySwin(nn.Module, Generic[C, K]):
    def __init__(self, dim: Dim[C], num_classes: Dim[K], image: int, patch: int = 4, window: int = 4) -> None:
        super().__init__()
        res = image // patch
        self.patch_embed = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.blocks = nn.Sequential(
            SwinBlock(dim, (res, res), 2, window, shift=0), SwinBlock(dim, (res, res), 2, window, shift=window // 2)
        )
        self.merge = PatchMerging(dim)
        self.norm = nn.LayerNorm(2 * dim)
        self.head = nn.Linear(2 * dim, num_classes)

    def forward(self, img: Tensor[B, 3, H, W]) -> Tensor[B, K]:
        x = self.patch_embed(img).permute(0, 2, 3, 1)  # (B, H/4, W/4, C)
        x = self.merge(self.blocks(x))
        return self.head(self.norm(x).mean(dim=(1, 2)))


def demo() -> None:
    model = TinySwin(dim=16, num_classes=10, image=32)
    logits = model(torch.randn(2, 3, 32, 32))
    assert logits.shape == (2, 10)
    F.cross_entropy(logits, torch.tensor([0, 9])).backward()
