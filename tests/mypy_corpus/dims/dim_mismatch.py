"""Two arguments that must be the same size, given different sizes."""

from typing import TypeVar

import torch

from tyr import Dim, Tensor

D = TypeVar("D")


def pad_to(x: Tensor[D], d: Dim[D]) -> Tensor[D]:
    return x


pad_to(torch.zeros(5), 6)  # E: Dimension D of "pad_to": bound to 5 by argument "x", but argument "d" has 6  [tyr-shape]
