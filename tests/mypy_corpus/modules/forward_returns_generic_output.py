"""A `forward` that returns a class generic in sizes (an HF-style `ModelOutput` dataclass): calling the
module gives it with the sizes bound, as calling `forward` does."""

from dataclasses import dataclass
from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


@dataclass
class Output(Generic[B, T]):
    logits: Tensor[B, T, 11]


class Net(nn.Module):
    def forward(self, idx: Tensor[B, T]) -> Output[B, T]:
        return Output(torch.zeros(idx.shape[0], idx.shape[1], 11))


def run() -> None:
    net = Net()
    out = net(torch.zeros(2, 5))
    reveal_type(out)  # N: Revealed type is "tests.mypy_corpus.modules.forward_returns_generic_output.Output[Literal[2], Literal[5]]"
    reveal_type(out.logits)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5], Literal[11]]"
