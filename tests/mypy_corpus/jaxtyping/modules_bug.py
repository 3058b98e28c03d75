"""A module called with a shape its `forward` does not take."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor, nn


class Positions(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Linear(3, 16)

    @jaxtyped(typechecker=beartype)
    def forward(self, xyz: Float[Tensor, "n 3"]) -> Float[Tensor, "n 16"]:
        return self.embed(xyz)


positions = Positions()
positions(torch.randn(100, 3))
positions(torch.randn(100, 2))  # E: Dimension 1 of argument "xyz" to "Positions.forward": expected 3, got 2  # raises
