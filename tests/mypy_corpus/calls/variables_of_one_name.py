"""Two type variables of one name in one message are told apart by where each is bound, as mypy
writes them: the tower's sizes bound by `Wrapper.__init__` are not the `G`, `P` of `forward`."""

from typing import Generic, TypeVar

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
G = TypeVar("G")
P = TypeVar("P")


class Tower(nn.Module, Generic[G, P]):
    def __init__(self, g: Dim[G], p: Dim[P]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 4, p, stride=p)

    def forward(self, x: Tensor[B, 3, "G*P", "G*P"]) -> Tensor[B, 4, G, G]:
        return self.conv(x)


class Wrapper(nn.Module):
    def __init__(self, tower: Tower[G, P]) -> None:
        super().__init__()
        self.tower = tower

    def forward(self, x: Tensor[B, 3, "G*P", "G*P"]) -> Tensor[B, 4, G, G]:
        return self.tower(x)  # E: Dimension 2 of argument "x" to "Tower.forward": expected G@__init__*P@__init__, got G@forward*P@forward  [tyr-shape]  # E: Dimension 3 of argument "x" to "Tower.forward": expected G@__init__*P@__init__, got G@forward*P@forward  [tyr-shape]
