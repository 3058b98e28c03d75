"""`enable_gqa=` and `is_causal=` given a value mypy cannot know (`h != kv`, `mask is None and t > 1`):
the shape every accepted value gives; an error where torch refuses every value."""

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
    F.scaled_dot_product_attention(q, k, v, enable_gqa=gqa)  # E: scaled_dot_product_attention: the query has D features (last dim) but the key has 5  [tyr-shape]


def causal_unknown(q: Tensor[B, H, T, D], k: Tensor[B, H, T, D], v: Tensor[B, H, T, D], mask: Tensor[B, 1, T, T] | None) -> None:
    is_causal = mask is None and q.shape[2] > 1  # the Hugging Face idiom
    y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=is_causal)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    F.scaled_dot_product_attention(q, k, v.transpose(2, 3), is_causal=is_causal)  # E: scaled_dot_product_attention: the key has length T (dim -2) but the value has D  [tyr-shape]
