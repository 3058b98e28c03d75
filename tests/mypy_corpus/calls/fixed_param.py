"""A parameter of fixed shape given another: the dim and both sizes."""

import torch

from tyr import Tensor


def image(x: Tensor[3, 32, 32]) -> None: ...


image(torch.zeros(3, 32, 32))
image(torch.zeros(3, 28, 28))  # E: Dimension 1 of argument "x" to "image": expected 32, got 28  [tyr-shape] # E: Dimension 2 of argument "x" to "image": expected 32, got 28  [tyr-shape]
