"""`nn.Embedding(V, C)` maps indices `(B, T)` to `(B, T, C)`."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def embed(idx: Tensor[B, T], c: Dim[C]) -> None:
    table = nn.Embedding(65, c)
    reveal_type(table)  # N: Revealed type is "torch.nn.modules.sparse.Embedding[Literal[65], C]"
    reveal_type(table(idx))  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(table.weight)  # N: Revealed type is "torch._tensor.Tensor[Literal[65], C]"
