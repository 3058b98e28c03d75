"""`repeat` of a tensor of unknown shape: one dim per count, each size unknown (a count times an unknown size)."""

from typing import reveal_type

import torch


def tile(x: torch.Tensor) -> None:
    reveal_type(x.repeat(2, 3))  # N: Revealed type is "torch._tensor.Tensor[Any, Any]"
    reveal_type(x.repeat(4, 0))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[0]]"
