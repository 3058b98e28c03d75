"""No integer D makes `2*D` equal 9: an error."""

import torch

from typing import TypeVar

from tyr import Tensor

D = TypeVar("D")


def halves(x: Tensor["2*D"]) -> Tensor[D]:
    return x[::2]


halves(torch.randn(9))  # E: Dimension 0 of argument "x" to "halves": expected 2*D, got 9  [tyr-shape]
