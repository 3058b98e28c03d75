"""An optional tensor argument, narrowed with `is None`, keeps its shape."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
V = TypeVar("V")


def loss(logits: Tensor[B, V], targets: Tensor[B] | None = None) -> Tensor[()] | None:
    if targets is None:
        return None
    reveal_type(targets)  # N: Revealed type is "torch._tensor.Tensor[B]"
    return F.cross_entropy(logits, targets)
