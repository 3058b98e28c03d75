"""`Tensor[*Batch, D]` and `Tensor[Unpack[Batch], D]`: a TypeVarTuple stands for any number of dims."""

from typing import TypeVar, TypeVarTuple, Unpack, reveal_type

from tyr import Tensor

Batch = TypeVarTuple("Batch")
D = TypeVar("D")


def star(x: Tensor[*Batch, D]) -> Tensor[*Batch, D]:
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*Batch, D]"
    return x


def unpack(x: Tensor[Unpack[Batch], D]) -> Tensor[Unpack[Batch], D]:
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*Batch, D]"
    return x
