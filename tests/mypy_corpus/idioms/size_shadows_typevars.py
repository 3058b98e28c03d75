"""SHAPES.md §6: `B, T, C = x.size()` inside forward, even where the locals shadow the signature's TypeVars."""

from typing import Generic, TypeVar, reveal_type

import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


class Attention(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C], n_head: int) -> None:
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        B, T, C = x.size()
        reveal_type(B)  # N: Revealed type is "tyr._static.Dim[B]"
        q, k, v = self.c_attn(x).split(C, dim=2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y)
