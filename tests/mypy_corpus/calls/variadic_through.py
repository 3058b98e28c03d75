"""A caller's own TypeVarTuple flows through a callee's."""

from typing import TypeVar, TypeVarTuple, reveal_type

from tyr import Tensor

Batch = TypeVarTuple("Batch")
Lead = TypeVarTuple("Lead")
D = TypeVar("D")
E = TypeVar("E")


def project(x: Tensor[*Batch, D], w: Tensor[E, D]) -> Tensor[*Batch, E]:
    return x @ w.T


def caller(x: Tensor[*Lead, 64], w: Tensor[16, 64]) -> Tensor[*Lead, 16]:
    y = project(x, w)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*Lead, Literal[16]]"
    return y
