"""Creation functions keep literal and `Dim` sizes: `torch.randn(32, d)` is `Tensor[32, D]`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim

D = TypeVar("D")


def make(d: Dim[D]) -> None:
    reveal_type(torch.randn(32, d))  # N: Revealed type is "torch._tensor.Tensor[Literal[32], D]"
    reveal_type(torch.randn((32, d)))  # N: Revealed type is "torch._tensor.Tensor[Literal[32], D]"
    reveal_type(torch.rand(d))  # N: Revealed type is "torch._tensor.Tensor[D]"
    reveal_type(torch.randn(()))  # N: Revealed type is "torch._tensor.Tensor[()]"
