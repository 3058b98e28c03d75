"""A function returning a tensor of another shape than it declares."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")
N = TypeVar("N")


def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]:
    return x @ w  # E: Returning Any from function declared to return "Tensor[B, N]"  [no-any-return] # E: @: dimension 1 of the left operand (M) does not match dimension 0 of the right operand (N)  [tyr-shape]


def wrong(x: Tensor[B, M]) -> Tensor[M, B]:
    return x  # E: Incompatible return value type (got "Tensor[B, M]", expected "Tensor[M, B]")  [return-value]
