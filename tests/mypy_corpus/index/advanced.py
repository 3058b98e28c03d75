"""Advanced indexing: integer index tensors (and lists) broadcast together and replace the dims they index."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
K = TypeVar("K")
V = TypeVar("V")


def gather_rows(x: Tensor[B, T, D], idx: Tensor[K], table: Tensor[V, D], tokens: Tensor[B, T], k: Dim[K]) -> None:
    reveal_type(table[tokens])  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(x[:, idx])  # N: Revealed type is "torch._tensor.Tensor[B, K, D]"
    reveal_type(x[idx, :, idx])  # N: Revealed type is "torch._tensor.Tensor[K, T]"
    reveal_type(x[0, :, idx])  # N: Revealed type is "torch._tensor.Tensor[T, K]"
    reveal_type(x[[0, 2, 1]])  # N: Revealed type is "torch._tensor.Tensor[Literal[3], T, D]"
    last = x[torch.arange(x.shape[0]), x.sum(-1).argmax(-1)]
    reveal_type(last)  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    _, top = x.sum(-1).topk(k)
    reveal_type(x[torch.arange(x.shape[0])[:, None], top])  # N: Revealed type is "torch._tensor.Tensor[B, K, D]"
    reveal_type(x[..., 0, ...])  # N: Revealed type is "torch._tensor.Tensor[B, T]"
