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


# A reduction given as a value not known here may be "none", which keeps the shape: unknown, never 0-d
# (public code: fairseq2 passes its own `reduction` through, then unflattens the loss).
def passed_through(logits: Tensor[B, V], y: Tensor[B], reduction: str = "mean") -> None:
    loss = F.cross_entropy(logits, y, reduction=reduction)
    reveal_type(loss)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    loss.unflatten(0, (2, -1))
    reveal_type(F.kl_div(logits, logits, reduction=reduction))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
