"""`nn.MultiheadAttention(E, H, batch_first=True)`: output like the query, weights `(N, L, S)`."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")
S = TypeVar("S")

attn = nn.MultiheadAttention(64, 4, batch_first=True)


def attend(x: Tensor[B, L, 64], memory: Tensor[B, S, 64]) -> Tensor[B, L, 64]:
    out, weights = attn(x, memory, memory)
    reveal_type(weights)  # N: Revealed type is "torch._tensor.Tensor[B, L, S]"
    per_head = attn(x, x, x, average_attn_weights=False)[1]
    reveal_type(per_head)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], L, L]"
    out, none = attn(x, x, x, need_weights=False)
    reveal_type(none)  # N: Revealed type is "None"
    return out


seq_first = nn.MultiheadAttention(32, 2, kdim=16, vdim=8)
reveal_type(seq_first(torch.zeros(5, 2, 32), torch.zeros(7, 2, 16), torch.zeros(7, 2, 8))[0])  # N: Revealed type is "torch._tensor.Tensor[Literal[5], Literal[2], Literal[32]]"


def of_a_plain_width(x: Tensor[B, L, S], width: int) -> None:
    """Built from a plain int, the attention still gives the query's features: torch takes no other."""
    out, _ = nn.MultiheadAttention(width, 2, batch_first=True)(x, x, x)
    reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, L, S]"


def with_optional_padding(x: Tensor[B, L, 64], memory: Tensor[B, S, 64], pad: Tensor[B, S] | None) -> None:
    """A mask that may be None is checked as torch checks it when given."""
    out, _ = attn(x, memory, memory, key_padding_mask=pad)
    reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, L, Literal[64]]"
    attn(x, memory, memory.transpose(0, 1), key_padding_mask=pad)  # E: multi_head_attention: the key (B, S, 64) and the value (S, B, 64) must have one shape
