"""Modules built with keyword arguments from a dict (timm's `dd = {'device': device, 'dtype': dtype}`,
then `nn.BatchNorm2d(dim, **dd)`): a flag that `**dd` may hold is not known, so every rule that
reads one (BatchNorm's `affine`) must take it as maybe true, never fail.
"""

from typing import Any

import torch
from torch import nn


class Stem(nn.Module):
    def __init__(self, in_chans: int, dim: int, device: Any = None, dtype: Any = None) -> None:
        super().__init__()
        dd = {"device": device, "dtype": dtype}
        self.conv = nn.Conv2d(in_chans, dim, kernel_size=4, stride=4, **dd)
        self.norm = nn.BatchNorm2d(dim, **dd)
        self.group = nn.GroupNorm(2, dim, **dd)
        self.layer = nn.LayerNorm(dim, **dd)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.layer(self.group(self.norm(self.conv(x))).mean((2, 3)))


def stem(flags: dict[str, bool]) -> nn.Module:
    return nn.BatchNorm1d(8, **flags) + 1  # plain mypy's error
