"""`topk(k, dim)` gives values and indices with `k` in `dim`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def best(x: Tensor[B, 100]) -> None:
    values, indices = x.topk(5)
    reveal_type(values)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5]]"
    reveal_type(torch.topk(x, 3, dim=-1).values)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    x.topk(200)  # E: topk  [tyr-shape]
