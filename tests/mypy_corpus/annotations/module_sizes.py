"""Sizes in a generic module's type arguments are written as in `Tensor[...]`: `nn.Linear[784, 256]`,
a user's `Block[768]`, `Block["2*D"]`."""

from typing import Generic, TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return self.fc(x)


class Wide(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.up: nn.Linear[D, "2*D"] = nn.Linear(d, 2 * d)
        self.inner: Block["2*D"] = Block(2 * d)
        self.norm: nn.LayerNorm[D] = nn.LayerNorm(d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, "2*D"]:
        return self.inner(self.up(self.norm(x)))


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc: nn.Linear[784, 256] = nn.Linear(784, 256)
        self.block: Block[768] = Block(768)
        self.wrong: nn.Linear[16, 32] = nn.Linear(16, 8)  # E: Incompatible types in assignment
        self.negative: nn.Linear[16, -1] = nn.Linear(16, 8)  # E: Invalid dimension -1

    def forward(self, x: Tensor[B, 768]) -> None:
        reveal_type(self.block(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[768]]"
        reveal_type(self.fc)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[784], Literal[256]]"
