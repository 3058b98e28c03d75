"""A list of unknown length stacked gives an unknown dim, not an error (SHAPES.md §6)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def gather(xs: list[Tensor[B, D]], n: int) -> None:
    reveal_type(torch.stack(xs))  # N: Revealed type is "torch._tensor.Tensor[Any, B, D]"
    reveal_type(torch.cat(xs, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    reveal_type(torch.stack([x * 2 for x in xs]))  # N: Revealed type is "torch._tensor.Tensor[Any, B, D]"
