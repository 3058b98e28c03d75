"""Building a generic module from a plain `int` (a config field): sizes unknown, no error."""

from dataclasses import dataclass
from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")


@dataclass
class Config:
    width: int = 64


class Block(nn.Module, Generic[C]):
    def __init__(self, c: Dim[C]) -> None:
        super().__init__()
        self.fc = nn.Linear(c, c)

    def forward(self, x: Tensor[B, C]) -> Tensor[B, C]:
        return self.fc(x)


block = Block(Config().width)
reveal_type(block)  # N: Revealed type is "tests.mypy_corpus.modules.constructor_int.Block[Any]"
reveal_type(block(torch.randn(2, 64)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Any]"
