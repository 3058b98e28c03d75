"""`F.dropout` keeps the shape; its probability must lie in [0, 1]."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def drop(x: Tensor[B, 8]) -> None:
    reveal_type(F.dropout(x, 0.1, training=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    F.dropout(x, 1.5)  # E: dropout: the probability p must be between 0 and 1, got 1.5  [tyr-shape]
