"""`torch.tensor` of a literal nest of numbers has the nest's shape; `randperm(n)` is `(n,)`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim

N = TypeVar("N")


def make(n: Dim[N], values: list[float]) -> None:
    reveal_type(torch.tensor([[1, 2, 3], [4, 5, 6]]))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
    reveal_type(torch.tensor(0.5))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.tensor([True, False]))  # N: Revealed type is "torch._tensor.Tensor[Literal[2]]"
    reveal_type(torch.randperm(n))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(torch.tensor(values))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
