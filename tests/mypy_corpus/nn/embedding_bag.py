"""Bags of embeddings: a 2-d input is bags of one length, a 1-d one is cut by offsets; one row per bag."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
K = TypeVar("K")


def bags(ids: Tensor[B, N], flat: Tensor[N], offsets: Tensor[K], weight: Tensor[10, 8]) -> None:
    bag = nn.EmbeddingBag(10, 8, mode="sum")
    reveal_type(bag(ids))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    reveal_type(bag(flat, offsets))  # N: Revealed type is "torch._tensor.Tensor[K, Literal[8]]"
    reveal_type(nn.EmbeddingBag(10, 8, include_last_offset=True)(flat, offsets))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['K - 1'], K], Literal[8]]"
    reveal_type(F.embedding_bag(flat, weight, offsets))  # N: Revealed type is "torch._tensor.Tensor[K, Literal[8]]"
    bag(ids, offsets)  # E: embedding_bag: a 2-d input (B, N) is bags of one length and takes no offsets (in EmbeddingBag[10, 8, 'sum', False])  [tyr-shape]
    bag(flat)  # E: embedding_bag: a 1-d input (N,) needs offsets, the start of each bag (in EmbeddingBag[10, 8, 'sum', False])  [tyr-shape]
    bag(ids, per_sample_weights=torch.ones(3))  # E: embedding_bag: per_sample_weights must have shape (B, N), got (3,) (in EmbeddingBag[10, 8, 'sum', False])  [tyr-shape]
    F.embedding_bag(ids, weight, per_sample_weights=torch.ones(3))  # E: embedding_bag: per_sample_weights are only taken in mode 'sum', not 'mean'  [tyr-shape]
