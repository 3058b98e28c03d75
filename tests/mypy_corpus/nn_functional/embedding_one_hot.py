"""`F.embedding(idx, weight)` appends the embedding dim; `F.one_hot(idx, n)` the class count."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
V = TypeVar("V")
C = TypeVar("C")


def embed(idx: Tensor[B, T], table: Tensor[V, C], v: Dim[V]) -> None:
    reveal_type(F.embedding(idx, table))  # N: Revealed type is "torch._tensor.Tensor[B, T, C]"
    reveal_type(F.one_hot(idx, 10))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[10]]"
    reveal_type(F.one_hot(idx, v))  # N: Revealed type is "torch._tensor.Tensor[B, T, V]"
    reveal_type(F.one_hot(idx))  # N: Revealed type is "torch._tensor.Tensor[B, T, Any]"
