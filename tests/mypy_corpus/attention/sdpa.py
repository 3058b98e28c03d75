"""`F.scaled_dot_product_attention(q, k, v)`: `(*, L, E)` with keys `(*, S, E)` and values `(*, S, Ev)` gives `(*, L, Ev)`."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
T = TypeVar("T")
S = TypeVar("S")
D = TypeVar("D")


def attend(q: Tensor[B, H, T, D], k: Tensor[B, H, S, D], v: Tensor[B, H, S, D]) -> Tensor[B, H, T, D]:
    y = F.scaled_dot_product_attention(q, k, v)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    return F.scaled_dot_product_attention(q, k, v, dropout_p=0.1, is_causal=True)
