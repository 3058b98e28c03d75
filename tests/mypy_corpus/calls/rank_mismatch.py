"""A tensor with the wrong number of dims for a parameter."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
M = TypeVar("M")


def rows(x: Tensor[B, M]) -> None: ...


rows(torch.zeros(2, 3, 4))  # E: Argument "x" to "rows" has 3 dimensions (2, 3, 4), but 2 are expected (B, M)  [tyr-shape]
