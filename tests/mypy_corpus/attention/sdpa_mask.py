"""An attention mask must broadcast to `(*, L, S)`; it cannot be combined with `is_causal`."""

from typing import TypeVar

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def attend(q: Tensor[B, T, 16], mask: Tensor[T, T]) -> None:
    F.scaled_dot_product_attention(q, q, q, attn_mask=mask)
    F.scaled_dot_product_attention(q, q, q, attn_mask=mask, is_causal=True)  # E: an explicit attn_mask cannot be combined with is_causal=True  [tyr-shape]
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.zeros(3, 5, 5))  # E: scaled_dot_product_attention (attn_mask)  [tyr-shape]
