"""`torch.vmap(f)` maps `f` over a dim of its arguments: torch types the result as `f` itself, whose
shapes then count one dim too few.  The function it gives takes and returns tensors of unknown
shape; calling it is no error."""

from typing import TypeVar, reveal_type

import torch
from torch.func import vmap

from tyr import Tensor

T = TypeVar("T")
D = TypeVar("D")


def pool(x: Tensor[T, D]) -> Tensor[D]:
    return x.mean(0)


def run(x: Tensor[4, 5, 3]) -> None:
    y = torch.vmap(pool)(x)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    z = vmap(pool, in_dims=1)(x)
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
