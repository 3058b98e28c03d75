"""`cat`/`stack` of tensors whose ranks differ for every length of a `*Batch` are errors; ranks that may agree are not."""

from typing import TypeVar, reveal_type

import torch
from typing_extensions import TypeVarTuple, Unpack

from tyr import Tensor

Batch = TypeVarTuple("Batch")
D = TypeVar("D")
T = TypeVar("T")


def join(
    x: Tensor[Unpack[Batch], D], m: Tensor[Unpack[Batch], D, D], y: Tensor[T, D], z: Tensor[Unpack[Batch], 3, 4, 5]
) -> None:
    torch.cat([x, m], dim=-1)  # E: cat: tensors must have the same number of dimensions  [tyr-shape]
    torch.stack([x, m])  # E: stack: each tensor must have the same shape  [tyr-shape]
    torch.cat([y, z], dim=0)  # E: cat: tensors must have the same number of dimensions: (T, D) at position 0 and (*Batch, 3, 4, 5)  [tyr-shape]
    reveal_type(torch.cat([y, x], dim=0))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
