"""`softmax` / `log_softmax` keep the shape; the dim must exist."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
V = TypeVar("V")


def probs(x: Tensor[B, V]) -> None:
    reveal_type(x.softmax(-1))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(F.softmax(x, dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(F.log_softmax(x, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(torch.softmax(x, 0))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(x.cumsum(1))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(x.logcumsumexp(0))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    reveal_type(torch.cummax(x, dim=1).values)  # N: Revealed type is "torch._tensor.Tensor[B, V]"
    x.cummin(2)  # E: cummin: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
    x.softmax(2)  # E: softmax: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
