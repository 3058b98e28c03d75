"""A shape error in a call of an overloaded torch function is reported once, as tyr's, whichever
item of the overload the arguments select: not as mypy's "No overload variant matches", nor with
another item's argument errors (`padding="same"` refused by the item that takes ints)."""

from typing import TypeVar

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")


def convolved(x: Tensor[B, 4, L]) -> None:
    F.conv1d(x, torch.randn(6, 4, 3), padding="same")
    F.conv1d(x, torch.randn(6, 5, 3), padding="same")  # E: conv1d: the input has 4 channels (dim 1 of (B, 4, L)) but the weight (6, 5, 3) with groups=1 expects 5  [tyr-shape]


def pooled(s: Tensor[B, 3, 10]) -> None:
    F.max_pool1d(s, 3, 2, 2, return_indices=True)  # E: max_pool1d: padding [2] must be between 0 and half of kernel_size [3]  [tyr-shape]
