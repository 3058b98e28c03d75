"""SHAPES.md §6, extended: where the code tests a size's remainder, it does not rely on the division being exact.

The timestep embedding of DiT / U-ViT / DDPM pads an odd width by one.  Under the exact-division
rule the padded width would be `F + 1`, a shape torch never gives; there the halves are of
unknown size instead.  A test that only guards the division (`assert`, `raise`) keeps it exact.
"""

import math
from typing import Generic, TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

N = TypeVar("N")
E = TypeVar("E")
B = TypeVar("B")
H = TypeVar("H")


def timestep_embedding(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    half = dim // 2
    reveal_type(half)  # N: Revealed type is "int"
    freqs = torch.exp(-math.log(10000) * torch.arange(half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    emb = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
    return emb


def ddpm_embedding(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    half = dim // 2
    e = t.float()[:, None] * torch.exp(torch.arange(half) * -0.1)[None, :]
    e = torch.cat([torch.sin(e), torch.cos(e)], dim=1)
    if dim % 2 == 1:
        e = F.pad(e, (0, 1, 0, 0))
    return e


def guarded(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    assert dim % 2 == 0, "an even width"
    args = t[:, None] * torch.arange(dim // 2)[None]
    reveal_type(args)  # N: Revealed type is "torch._tensor.Tensor[N, tyr._static.DimExpr[Literal['E//2'], E]]"
    return torch.cat([args.cos(), args.sin()], dim=-1)


def raised(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    if dim % 2:
        raise ValueError("an even width")
    args = t[:, None] * torch.arange(dim // 2)[None]
    return torch.cat([args.cos(), args.sin()], dim=-1)


def pad_to_even(x: Tensor[B, 3, H, H]) -> None:
    h = x.shape[2]
    if h % 2 == 1:
        x = F.pad(x, (0, 1, 0, 1))
    reveal_type(F.max_pool2d(x, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Any, Any]"


class Embedding(nn.Module, Generic[E]):
    """The remainder tested in `__init__` counts for every method of the class."""

    def __init__(self, dim: Dim[E]) -> None:
        super().__init__()
        self.dim = dim
        self.odd = dim % 2 == 1

    def forward(self, t: Tensor[N]) -> Tensor[N, E]:
        args = t[:, None] * torch.arange(self.dim // 2)[None]
        emb = torch.cat([args.cos(), args.sin()], dim=-1)
        if self.odd:
            emb = F.pad(emb, (0, 1))
        return emb


def tested_by_bits(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    half = dim // 2
    args = t[:, None] * torch.arange(half)[None]
    emb = torch.cat([args.cos(), args.sin()], dim=-1)
    if dim & 1:
        emb = torch.cat([emb, torch.zeros_like(emb[:, :1])], dim=-1)
    return emb


def tested_by_twice_the_half(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    half = dim // 2
    args = t[:, None] * torch.arange(half)[None]
    emb = torch.cat([args.cos(), args.sin()], dim=-1)
    if half * 2 != dim:
        emb = F.pad(emb, (0, 1))
    return emb


def tested_by_what_is_left(t: Tensor[N], dim: Dim[E]) -> Tensor[N, E]:
    half = dim // 2
    args = t[:, None] * torch.arange(half)[None]
    emb = torch.cat([args.cos(), args.sin()], dim=-1)
    left = dim - 2 * half
    return F.pad(emb, (0, left))


C = TypeVar("C")
K = TypeVar("K")


def same_conv(x: Tensor[B, 4, H], k: Dim[K]) -> Tensor[B, 4, H]:
    # The guard requires an odd kernel: `k // 2` is not exact, so the padded width is unknown, never `H + 1`.
    assert k % 2 == 1, "kernel size must be odd"
    y = nn.Conv1d(4, 4, k, padding=k // 2)(x)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], Any]"
    return y


def same_conv_raised(x: Tensor[B, 4, H], k: Dim[K]) -> Tensor[B, 4, H]:
    if k % 2 == 0:
        raise ValueError("kernel size must be odd")
    return nn.Conv1d(4, 4, k, padding=k // 2)(x)


def same_conv_by_bits(x: Tensor[B, 4, H], k: Dim[K]) -> Tensor[B, 4, H]:
    assert k & 1
    return nn.Conv1d(4, 4, k, padding=k // 2)(x)


def conformer_conv(x: Tensor[B, 4, H], k: Dim[K]) -> Tensor[B, 4, H]:
    # ESPnet's convolution module: `k - 1` even is an odd `k` again.
    assert (k - 1) % 2 == 0
    return nn.Conv1d(4, 4, k, padding=(k - 1) // 2)(x)


def heads_guarded(x: Tensor[B, H, C], n_head: Dim[K]) -> Tensor[B, H, C]:
    # A guard that the division is exact (with a message, or with both sides named) keeps the rule.
    if x.shape[-1] % n_head != 0:
        raise ValueError("width not divisible by the heads")
    assert not x.shape[-1] % n_head
    q = x.view(x.shape[0], x.shape[1], n_head, x.shape[2] // n_head)
    reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, H, K, tyr._static.DimExpr[Literal['C//K'], C, K]]"
    return q.flatten(2)
