"""`kthvalue(k, dim)` and `aminmax(dim=...)` give two tensors reduced over `dim`, read by name or unpacked."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def statistics(x: Tensor[B, 5]) -> None:
    reveal_type(x.kthvalue(2, dim=1).values)  # N: Revealed type is "torch._tensor.Tensor[B]"
    values, indices = torch.kthvalue(x, 3, 1, keepdim=True)
    reveal_type(indices)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    low, high = x.aminmax(dim=0)
    reveal_type(high)  # N: Revealed type is "torch._tensor.Tensor[Literal[5]]"
    reveal_type(torch.aminmax(x).min)  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(x.mode(0, keepdim=True).values)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[5]]"
    x.kthvalue(6, dim=1)  # E: kthvalue: k (6) must be between 1 and the size of dimension 1 (5)  [tyr-shape]
    x.aminmax(dim=2)  # E: aminmax: dimension 2 is out of range  [tyr-shape]
