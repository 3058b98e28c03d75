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


# A value typed as a Python number is 0-d, a list display of them 1-d (red team 10: Gemma's
# `x * torch.tensor(d ** 0.5)` lost x's shape).
def scale(n: Dim[N], s: float, k: int, flag: bool, z: complex, x: torch.Tensor) -> None:
    reveal_type(torch.tensor(n**0.5))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.tensor(n))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.tensor([s, k, flag]))  # N: Revealed type is "torch._tensor.Tensor[Literal[3]]"
    reveal_type(torch.tensor([[s], [z]]))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[1]]"
    reveal_type(torch.as_tensor(s))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.as_tensor(x))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(torch.scalar_tensor(s))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.tensor([k] * 3))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


scale(4, 0.5, 2, True, 1j, torch.zeros(2))
