"""SHAPES.md §6: passing `Tensor[4, 3]` where the call has bound B from another argument is an error."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")


def pair(x: Tensor[B, 3], y: Tensor[B, 3]) -> None: ...


def caller(x: Tensor[B, 3]) -> None:
    pair(x, x)
    pair(x, torch.zeros(4, 3))  # E: Dimension B of "pair": bound to B@caller by argument "x", but argument "y" has 4  [tyr-shape]
