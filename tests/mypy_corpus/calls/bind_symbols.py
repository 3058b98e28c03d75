"""Binding across generic functions: a callee's TypeVars bind to the caller's."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


def caller(a: Tensor[B, D], w: Tensor[E, D]) -> Tensor[B, E]:
    out = linear(a, w)
    reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, E]"
    return out
