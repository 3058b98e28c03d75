"""`arange(n)` is `(n,)`; `arange(start, end, step)` counts its steps."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim

N = TypeVar("N")


def ranges(n: Dim[N], k: int) -> None:
    reveal_type(torch.arange(n))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(torch.arange(10))  # N: Revealed type is "torch._tensor.Tensor[Literal[10]]"
    reveal_type(torch.arange(2, 10))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
    reveal_type(torch.arange(0, 10, 3))  # N: Revealed type is "torch._tensor.Tensor[Literal[4]]"
    reveal_type(torch.arange(k))  # N: Revealed type is "torch._tensor.Tensor[Any]"
