"""Shaped functions whose signatures the second run reads from mypy's cache."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")
D = TypeVar("D")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w.T


def halves(x: Tensor[B, "2*D"]) -> Tensor[B, D]:
    return x[:, ::2]
