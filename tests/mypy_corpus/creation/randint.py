"""`randint(low, high, size)` keeps `size`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim

B = TypeVar("B")


def tokens(b: Dim[B]) -> None:
    reveal_type(torch.randint(0, 65, (b, 16)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16]]"
    reveal_type(torch.randint(10, size=(3,)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3]]"
