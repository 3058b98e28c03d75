"""`flatten(start, end)` merges dims; `unflatten(dim, sizes)` splits one."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def reshape(x: Tensor[B, 3, 8, 8]) -> None:
    reveal_type(x.flatten(1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[192]]"
    reveal_type(torch.flatten(x, 2, 3))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[64]]"
    reveal_type(x.flatten())  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['192*B'], B]]"
    reveal_type(x.flatten(1).unflatten(1, (3, -1)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[64]]"
    x.unflatten(1, (2, 2))  # E: unflatten  [tyr-shape]
