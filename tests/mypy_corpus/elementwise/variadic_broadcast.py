"""Broadcasting with a TypeVarTuple: `Tensor[*Batch, D] + Tensor[D]` is `Tensor[*Batch, D]`."""

from typing import TypeVar, TypeVarTuple, reveal_type

from tyr import Tensor

Batch = TypeVarTuple("Batch")
D = TypeVar("D")


def shift(x: Tensor[*Batch, D], b: Tensor[D]) -> Tensor[*Batch, D]:
    reveal_type(x + b)  # N: Revealed type is "torch._tensor.Tensor[*Batch, D]"
    return x + b
