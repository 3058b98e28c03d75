"""ConvNeXt: depthwise 7x7 convs, LayerNorm over channels-last via permute, layer scale, 2x2 downsampling.

The stage widths come from a plain list of ints (unknown to the checker); each block is generic
in its width.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

N = TypeVar("N")
H = TypeVar("H")
W = TypeVar("W")
D = TypeVar("D")
K = TypeVar("K")


@checked
class LayerNorm2d(nn.Module, Generic[D]):
    """LayerNorm over the channels of an (N, D, H, W) tensor."""

    def __init__(self, dim: Dim[D], eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))
        self.eps = eps

    def forward(self, x: Tensor[N, D, H, W]) -> Tensor[N, D, H, W]:
        u = x.mean(1, keepdim=True)
        s = (x - u).pow(2).mean(1, keepdim=True)
        x = (x - u) / torch.sqrt(s + self.eps)
        return self.weight[:, None, None] * x + self.bias[:, None, None]


@checked
class Block(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], layer_scale_init: float = 1e-6) -> None:
        super().__init__()
        self.dwconv = nn.Conv2d(dim, dim, kernel_size=7, padding=3, groups=dim)  # depthwise
        self.norm = nn.LayerNorm(dim, eps=1e-6)
        self.pwconv1 = nn.Linear(dim, 4 * dim)  # pointwise convs as linears, channels last
        self.pwconv2 = nn.Linear(4 * dim, dim)
        self.gamma = nn.Parameter(layer_scale_init * torch.ones(dim))

    def forward(self, x: Tensor[N, D, H, W]) -> Tensor[N, D, H, W]:
        shortcut = x
        x = self.dwconv(x)
        x = x.permute(0, 2, 3, 1)  # (N, D, H, W) -> (N, H, W, D)
        x = self.norm(x)
        x = self.pwconv2(F.gelu(self.pwconv1(x)))
        x = self.gamma * x
        x = x.permute(0, 3, 1, 2)  # (N, H, W, D) -> (N, D, H, W)
        return shortcut + x


class ConvNeXt(nn.Module):
    def __init__(self, in_chans: int = 3, num_classes: int = 1000, depths: list[int] | None = None,
                 dims: list[int] | None = None) -> None:
        super().__init__()
        depths = depths or [3, 3, 9, 3]
        dims = dims or [96, 192, 384, 768]
        self.downsample_layers = nn.ModuleList()
        stem = nn.Sequential(nn.Conv2d(in_chans, dims[0], kernel_size=4, stride=4), LayerNorm2d(dims[0]))
        self.downsample_layers.append(stem)
        for i in range(3):
            layer = nn.Sequential(LayerNorm2d(dims[i]), nn.Conv2d(dims[i], dims[i + 1], kernel_size=2, stride=2))
            self.downsample_layers.append(layer)
        self.stages = nn.ModuleList()
        for i in range(4):
            self.stages.append(nn.Sequential(*[Block(dims[i]) for _ in range(depths[i])]))
        self.norm = nn.LayerNorm(dims[-1], eps=1e-6)
        self.head = nn.Linear(dims[-1], num_classes)

    def forward_features(self, x: Tensor[N, 3, H, W]) -> Tensor[N, D]:
        for downsample, stage in zip(self.downsample_layers, self.stages):
            x = stage(downsample(x))
        return self.norm(x.mean([-2, -1]))  # global average pooling, (N, C, H, W) -> (N, C)

    def forward(self, x: Tensor[N, 3, H, W]) -> Tensor[N, K]:
        return self.head(self.forward_features(x))


def demo() -> None:
    model = ConvNeXt(num_classes=10, depths=[1, 1, 2, 1], dims=[8, 16, 32, 64])
    x = torch.randn(2, 3, 64, 64)
    logits = model(x)
    assert logits.shape == (2, 10)
    F.cross_entropy(logits, torch.tensor([3, 4])).backward()
    block = Block(8)
    assert block(torch.randn(2, 8, 5, 7)).shape == (2, 8, 5, 7)
