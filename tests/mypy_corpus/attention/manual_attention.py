"""Attention written out: scores, a causal mask from `tril`, softmax, and the weighted sum."""

from typing import TypeVar, reveal_type

import math

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
T = TypeVar("T")
D = TypeVar("D")


def attend(q: Tensor[B, H, T, D], k: Tensor[B, H, T, D], v: Tensor[B, H, T, D]) -> Tensor[B, H, T, D]:
    t = q.size(-2)
    att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
    mask = torch.tril(torch.ones(t, t))
    reveal_type(mask)  # N: Revealed type is "torch._tensor.Tensor[T, T]"
    att = att.masked_fill(mask == 0, float("-inf"))
    att = F.softmax(att, dim=-1)
    reveal_type(att)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, T]"
    return att @ v
