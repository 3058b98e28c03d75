"""`F.cross_entropy(logits, targets)`: logits `(N, C)` with class indices `(N,)` give a 0-d loss."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
V = TypeVar("V")


def loss(logits: Tensor[B, T, V], targets: Tensor[B, T]) -> Tensor[()]:
    b, t, v = logits.size()
    flat = F.cross_entropy(logits.view(b * t, v), targets.view(b * t))
    reveal_type(flat)  # N: Revealed type is "torch._tensor.Tensor[()]"
    per_item = F.cross_entropy(logits.view(b * t, v), targets.view(-1), reduction="none")
    reveal_type(per_item)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T]]"
    return flat
