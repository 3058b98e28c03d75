"""Inside `forward`, a layer built with fixed sizes does not take the annotated dim."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor, nn


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.hidden = nn.Linear(16, 32)
        self.out = nn.Linear(64, 3)

    @jaxtyped(typechecker=beartype)
    def forward(self, x: Float[Tensor, "n 16"]) -> Float[Tensor, "n 3"]:
        return self.out(self.hidden(x))  # E: [tyr-shape]


Head()(torch.randn(4, 16))  # raises
