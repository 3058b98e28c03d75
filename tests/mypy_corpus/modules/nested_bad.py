"""A sub-module built for the wrong width, caught at the call in the parent's forward."""

from typing import Generic, TypeVar

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")


class Proj(nn.Module, Generic[D, E]):
    def __init__(self, d: Dim[D], e: Dim[E]) -> None:
        super().__init__()
        self.lin = nn.Linear(d, e)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, E]:
        return self.lin(x)


class Twice(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.up = Proj(d, 2 * d)
        self.down = Proj(d, d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return self.down(self.up(x))  # E: Dimension 1 of argument "x" to "Proj.forward": expected D, got 2*D  [tyr-shape]
