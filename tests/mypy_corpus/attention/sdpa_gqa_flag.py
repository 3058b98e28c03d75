"""`enable_gqa=` given a value mypy cannot know (`h != kv`): the shape every accepted value gives."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
KV = TypeVar("KV")
T = TypeVar("T")
D = TypeVar("D")


def grouped(q: Tensor[B, H, T, D], k: Tensor[B, KV, T, D], v: Tensor[B, KV, T, D], gqa: bool) -> None:
    y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=gqa)  # only True fits H vs KV
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"


def same_heads(q: Tensor[B, H, T, D], k: Tensor[B, H, T, D], v: Tensor[B, H, T, D], gqa: bool) -> None:
    y = F.scaled_dot_product_attention(q, k, v, enable_gqa=gqa)  # both fit, and agree
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"


def neither(q: Tensor[B, H, T, D], k: Tensor[B, H, T, 5], v: Tensor[B, H, T, D], gqa: bool) -> None:
    y = F.scaled_dot_product_attention(q, k, v, enable_gqa=gqa)  # no value fits: unknown, no guess
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
