"""Locals assigned modules of other sizes, and loop indexes over module lists of other classes,
under mypy's defaults: torch types each `Conv2d` alike and each item of an `nn.ModuleList` as a
`Module`, so plain mypy accepts every assignment here (tyr declares such a local as torch types
its first value).

Found on Stability-AI/generative-models (`for i, module in enumerate(self.output_blocks)` after a
loop over `self.input_blocks`).
"""

from __future__ import annotations

import torch
from torch import nn


class TimestepBlock(nn.Sequential):
    pass


class VideoUNet(nn.Module):
    def __init__(self, channels: int) -> None:
        super().__init__()
        self.input_blocks = nn.ModuleList([TimestepBlock(nn.Conv2d(3, channels, 3, padding=1))])
        self.output_blocks = nn.ModuleList([])
        self.output_blocks.append(TimestepBlock(nn.Conv2d(channels, 3, 3, padding=1)))
        self.heads = nn.ModuleList([nn.Linear(3, 3)])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = x
        for i, module in enumerate(self.input_blocks):
            h = module(h)
        for i, module in enumerate(self.output_blocks):
            h = module(h)
        for module, head in zip(self.input_blocks, self.heads):
            h = head(h)
        block = self.input_blocks[0]
        block = self.heads[0]
        return block(h)


def stem(flag: bool) -> nn.Module:
    conv = nn.Conv2d(3, 64, 7, stride=2, padding=3)
    conv = nn.Conv2d(64, 64, 3, padding=1)
    layers = nn.Sequential(conv, nn.ReLU())
    layers = nn.Sequential(conv)
    lists = nn.ModuleList([conv])
    lists = nn.ModuleList([nn.Linear(3, 4)])
    width: int = "64"  # plain mypy's own error, so that this program is checked
    return layers if width else lists
