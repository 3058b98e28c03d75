"""SHAPES.md §6: strided conv / pooling sizes that simplify, `(2*H - 1)//2 + 1` is `H`."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")

down = nn.Conv2d(8, 8, kernel_size=3, stride=2, padding=1)
pool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)


def run(x: Tensor[B, 8, "2*H", "2*H"]) -> Tensor[B, 8, H, H]:
    y = down(x)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], H, H]"
    reveal_type(pool(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], H, H]"
    return y
