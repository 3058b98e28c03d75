"""`gather` needs an index of the input's rank; `index_select` a vector; `index_add` a source of the input's slices."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
V = TypeVar("V")
K = TypeVar("K")


def pick(logits: Tensor[B, T, V], targets: Tensor[B, T], ids: Tensor[K], table: Tensor[V, 16]) -> None:
    logits.gather(-1, targets)  # E: gather: the index (B, T) must have as many dims as the input (B, T, V)  [tyr-shape]
    torch.gather(table, 1, torch.zeros(3, 4, 1, dtype=torch.long))  # E: gather: the index (3, 4, 1) must have as many dims as the input (V, 16)  [tyr-shape]
    table.index_select(0, targets)  # E: index_select: the index must be a vector (1-d or 0-d), not (B, T)  [tyr-shape]
    table.index_add(0, ids, torch.ones(ids.shape[0], 8))  # E: index_add: the source (K, 8) must be the input (V, 16) with dimension 0 as long as the index  [tyr-shape]
    logits.scatter(-1, targets[..., None], torch.zeros(4))  # E: scatter: the source (4,) must have as many dims as the input (B, T, V)  [tyr-shape]
