"""A plain `int` where a size is wanted loses tracking: the size is unknown, never an error."""

from typing import reveal_type

import torch


def make(n: int) -> None:
    x = torch.zeros(n, 4)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[4]]"
    y = x.view(n * 4)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any]"
