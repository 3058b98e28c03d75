"""`gather` has the index's shape; `index_select` swaps one dim for the number of indices; `scatter` keeps the input's."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
V = TypeVar("V")
K = TypeVar("K")


def pick(logits: Tensor[B, T, V], targets: Tensor[B, T], ids: Tensor[K], table: Tensor[V, 16]) -> None:
    picked = logits.gather(-1, targets.unsqueeze(-1))
    reveal_type(picked)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    reveal_type(torch.gather(logits, 2, targets[..., None]))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    reveal_type(torch.take_along_dim(logits, targets[..., None], dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    reveal_type(table.index_select(0, ids))  # N: Revealed type is "torch._tensor.Tensor[K, Literal[16]]"
    reveal_type(logits.scatter(-1, targets[..., None], 0.0))  # N: Revealed type is "torch._tensor.Tensor[B, T, V]"
    reveal_type(torch.scatter_add(logits, -1, targets[..., None], picked))  # N: Revealed type is "torch._tensor.Tensor[B, T, V]"
    reveal_type(table.index_add(0, ids, torch.ones(ids.shape[0], 16)))  # N: Revealed type is "torch._tensor.Tensor[V, Literal[16]]"
