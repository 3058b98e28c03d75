"""A mask that may be None (`attn_mask = None; if mask is not None: attn_mask = ...`) is checked as
the tensor it is whenever given; with `is_causal=True` torch refuses the two together only where the
mask is given, so there it is left alone."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
T = TypeVar("T")
S = TypeVar("S")
D = TypeVar("D")


def attend(q: Tensor[B, H, T, D], k: Tensor[B, H, S, D], mask: Tensor[B, S] | None) -> None:
    attn_mask = None
    if mask is not None:
        attn_mask = mask[:, None, None, :]
    reveal_type(F.scaled_dot_product_attention(q, k, k, attn_mask=attn_mask))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(F.scaled_dot_product_attention(q, k, k, attn_mask=attn_mask, is_causal=True))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    wrong = None
    if mask is not None:
        wrong = mask[:, None, :, None]
    F.scaled_dot_product_attention(q, k, k, attn_mask=wrong)  # E: scaled_dot_product_attention (attn_mask): dimension 2 of the operand (S) does not broadcast with dimension 2 of the target (T); shapes (B, 1, S, 1) and (B, H, T, S)
