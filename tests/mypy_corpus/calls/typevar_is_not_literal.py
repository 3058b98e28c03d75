"""Inside a function generic in B, B is not 4."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")


def same(x: Tensor[B, 3], y: Tensor[B, 3]) -> None: ...


def caller(a: Tensor[B, 3]) -> None:
    same(a, torch.zeros(4, 3))  # E: Dimension B of "same": bound to B@caller by argument "x", but argument "y" has 4  [tyr-shape]
