"""A forward whose body's shape is not the declared one."""

from typing import TypeVar

from torch import nn

from tyr import Tensor

B = TypeVar("B")


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.out = nn.Linear(64, 10)

    def forward(self, x: Tensor[B, 64]) -> Tensor[B, 64]:
        return self.out(x)  # E: Incompatible return value type (got "Tensor[B, Literal[10]]", expected "Tensor[B, Literal[64]]")  [return-value]
