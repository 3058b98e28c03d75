"""A module attribute assigned modules of different sizes holds any of them: its sizes are unknown.

mypy declares an attribute by its first assignment.  Where the class assigns it again
(`self.shortcut = nn.Sequential()`, then a strided projection where the sizes change),
the first value's sizes would give a wrong shape, and a false alarm where the result
meets another tensor.  tyr reads such an attribute as torch types it (`Linear[Any, Any]`).
An attribute assigned from outside its class (`m.fc = nn.Linear(512, 10)`) is the new
module from there on.
"""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")
I = TypeVar("I")
P = TypeVar("P")
S = TypeVar("S")
K = TypeVar("K")


class BasicBlock(nn.Module, Generic[I, P, S]):
    """kuangliu/pytorch-cifar's shortcut: empty, or a strided projection."""

    def __init__(self, in_planes: Dim[I], planes: Dim[P], stride: Dim[S]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(in_planes, planes, kernel_size=3, stride=stride, padding=1)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, kernel_size=1, stride=stride), nn.BatchNorm2d(planes)
            )

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, P, "H//S", "W//S"]:
        out = self.conv(x)
        reveal_type(self.shortcut)  # N: Revealed type is "torch.nn.modules.container.Sequential[*tuple[Any, ...]]"
        return torch.relu(out + self.shortcut(x))


class Down(nn.Module, Generic[C]):
    """Assigned in both branches, and again in a branch."""

    def __init__(self, c: Dim[C], downsample: bool) -> None:
        super().__init__()
        if downsample:
            self.conv = nn.Conv2d(c, c, 3, padding=1, stride=2)
        else:
            self.conv = nn.Conv2d(c, c, 3, padding=1)
        self.fc = nn.Linear(c, c)
        if downsample:
            self.fc = nn.Linear(c, 2 * c)
        # this path's value, or the other's (as for a local name)
        reveal_type(self.fc)  # N: Revealed type is "torch.nn.modules.linear.Linear[C, tyr._static.DimExpr[Literal['2*C'], C]] | torch.nn.modules.linear.Linear[C, C]"
        self.norm = nn.LayerNorm(c)

    def forward(self, x: Tensor[B, C, H, W]) -> None:
        reveal_type(self.conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, Any, Any, Any]"
        reveal_type(self.fc(x.mean((2, 3))))  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
        reveal_type(self.norm)  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[C]"


class Classifier(nn.Module):
    """Assigned again in another method (a head reset for fine-tuning)."""

    def __init__(self) -> None:
        super().__init__()
        self.head = nn.Linear(16, 1000)

    def reset_head(self, classes: int) -> None:
        self.head = nn.Linear(16, classes)
        reveal_type(self.head)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[16], Any]"

    def forward(self, x: Tensor[B, 16]) -> Tensor[B, int]:
        reveal_type(self.head)  # N: Revealed type is "torch.nn.modules.linear.Linear[Any, Any]"
        return self.head(x)


class Net(nn.Module, Generic[K]):
    def __init__(self, classes: Dim[K]) -> None:
        super().__init__()
        self.fc = nn.Linear(16, classes)


def fine_tune() -> None:
    m = Net(1000)
    reveal_type(m.fc(torch.randn(2, 16)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[1000]]"
    m.fc = nn.Linear(m.fc.in_features, 10)
    reveal_type(m.fc)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[16], Literal[10]]"
    reveal_type(m.fc(torch.randn(2, 16)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[10]]"
