"""`nn.Module`s annotated with jaxtyping: `module(x)` is checked against `forward`."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor, nn


class Encoder(nn.Module):
    def __init__(self, in_dim: int, out_dim: int) -> None:
        super().__init__()
        self.proj = nn.Linear(in_dim, out_dim)

    @jaxtyped(typechecker=beartype)
    def forward(self, x: Float[Tensor, "*batch in_dim"]) -> Float[Tensor, "*batch out_dim"]:
        return torch.relu(self.proj(x))


class Positions(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Linear(3, 16)

    @jaxtyped(typechecker=beartype)
    def forward(self, xyz: Float[Tensor, "n 3"]) -> Float[Tensor, "n 16"]:
        return self.embed(xyz)


encoder = Encoder(8, 4)
out = encoder(torch.randn(2, 5, 8))
reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5], Any]"
features = Positions()(torch.randn(100, 3))
reveal_type(features)  # N: Revealed type is "torch._tensor.Tensor[Literal[100], Literal[16]]"
