"""Rotary position embedding (RoPE, Su et al. 2021), shape-checked.

Each head's vector is cut into two halves, and the pair (x1[i], x2[i]) is rotated by
the angle ``position * base**(-i / half)``: a query and a key then score each other by
their offset alone, in every layer, and nothing is learned.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")  # heads
T = TypeVar("T")  # positions
Hd = TypeVar("Hd")  # head size


@checked
class Rotary(nn.Module, Generic[Hd]):
    """Rotates query or key vectors by their position.

    Arguments:
        head_dim: the head size `Hd`, even.
        max_len: the longest sequence it rotates.
        base: the wavelength scale (default 10,000).

    `rotary(x, start)` takes `x: Tensor[B, H, T, Hd]` at positions `start .. start + T - 1`
    (`start` defaults to 0; a KV cache passes how many positions it already holds), with
    `start + T <= max_len`, and returns the same shape.
    """

    cos: Tensor[Any, "Hd//2"]
    sin: Tensor[Any, "Hd//2"]

    def __init__(self, head_dim: Dim[Hd], max_len: int, base: float = 10_000.0) -> None:
        super().__init__()
        if head_dim % 2:
            raise ValueError(f"rotary embedding needs an even head size, got {head_dim}")
        half = head_dim // 2
        frequencies = base ** (-torch.arange(half, dtype=torch.float32) / half)
        angles = torch.outer(torch.arange(max_len, dtype=torch.float32), frequencies)
        self.register_buffer("cos", angles.cos(), persistent=False)  # computed, not learned: never saved
        self.register_buffer("sin", angles.sin(), persistent=False)

    def forward(self, x: Tensor[B, H, T, Hd], start: int = 0) -> Tensor[B, H, T, Hd]:
        t, half = x.size(2), x.size(3) // 2
        if start + t > self.cos.size(0):
            raise ValueError(f"rotary positions {start}..{start + t - 1} run past the table's {self.cos.size(0)}; "
                             "build the model with a longer max_len")  # fmt: skip
        cos, sin = self.cos[start : start + t], self.sin[start : start + t]
        x1, x2 = x[..., :half], x[..., half:]
        return torch.cat((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1)
