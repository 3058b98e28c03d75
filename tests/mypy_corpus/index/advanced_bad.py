"""Index tensors must broadcast together; a mask must match the dims it covers."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
K = TypeVar("K")


def bad(x: Tensor[B, T, D], idx: Tensor[K], tokens: Tensor[B, T]) -> None:
    x[tokens.argmax(-1), idx]  # E: index (index tensors): dimension 0 of the index of dim 0 (B) does not broadcast with dimension 0 of the index of dim 1 (K)  [tyr-shape]
    x[tokens > 0, tokens > 0]  # E: index: 4 indices for the 3-d tensor (B, T, D): too many  [tyr-shape]
    x[:, :, tokens == 1]  # E: index: 4 indices for the 3-d tensor (B, T, D): too many  [tyr-shape]
    torch.zeros(4, 5)[torch.zeros(4, 3, dtype=torch.bool)]  # E: index: the mask's shape (4, 3) does not match dims 0 to 1 of the indexed tensor (4, 5): dim 1 is 5, the mask's is 3  [tyr-shape]
