"""Distinct symbols are distinct: inside a function generic in D and E, D is not E."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


def caller(a: Tensor[B, D], w: Tensor[N, E]) -> None:
    linear(a, w)  # E: Dimension M of "linear": bound to D by argument "x", but argument "w" has E  [tyr-shape]
