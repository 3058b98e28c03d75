"""A size variable that only the result's size strings mention (`-> Tensor[B, "E//2"]`) is bound to nothing
by a call: that size is unknown, as a bare `E` is, never the callee's own `E` (which no caller's size
could match)."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")


def make(x: Tensor[B, 8]) -> Tensor[B, "E//2"]:
    return x[:, : x.shape[0]]


def take(x: Tensor[B, D], y: Tensor[B, D]) -> None: ...


def use(x: Tensor[B, 8]) -> None:
    reveal_type(make(x))  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    take(x, make(x))
