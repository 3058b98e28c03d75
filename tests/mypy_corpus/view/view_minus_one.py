"""`view` with one -1 solves it exactly: `B*12` viewed as `(-1, 3, 4)` gives `B`."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def regroup(x: Tensor["B*12"]) -> Tensor[B, 3, 4]:
    y = x.view(-1, 3, 4)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4]]"
    return y
