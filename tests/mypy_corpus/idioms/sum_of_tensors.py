"""`sum(...)` of tensors (codebook embeddings summed, losses summed): the tensors' type, not typeshed's
`| Literal[0]` for an empty iterable, which a module's typed call would refuse.  Of other values, and
with `start`, typeshed's own type."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
K = TypeVar("K")
T = TypeVar("T")
D = TypeVar("D")


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return self.fc(x)


class CodebookSum(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D], k: int) -> None:
        super().__init__()
        self.embs = nn.ModuleList([nn.Embedding(16, d) for _ in range(k)])
        self.block = Block(d)

    def forward(self, codes: Tensor[B, K, T]) -> Tensor[B, T, D]:
        x = sum(self.embs[i](codes[:, i]) for i in range(codes.shape[1]))
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
        return self.block(x)


def others(losses: list[Tensor[()]], widths: list[int], scales: list[float]) -> None:
    reveal_type(sum(losses))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(sum(widths))  # N: Revealed type is "int"
    reveal_type(sum(scales))  # N: Revealed type is "float | Literal[0]"
    reveal_type(sum([torch.zeros(3, 1), torch.zeros(1, 4)]))  # N: Revealed type is "torch._tensor.Tensor[int, int]"
