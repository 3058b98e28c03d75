"""An override annotated like the method it overrides (its names renamed or not) is compatible."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor, nn


class Field(nn.Module):
    def density(self, positions: Float[Tensor, "*bs 3"]) -> Float[Tensor, "*bs 1"]:
        raise NotImplementedError

    def color(self, features: Float[Tensor, "n f"], directions: Float[Tensor, "n 3"]) -> Float[Tensor, "n 3"]:
        raise NotImplementedError


class Constant(Field):
    @jaxtyped(typechecker=beartype)
    def density(self, positions: Float[Tensor, "*bs 3"]) -> Float[Tensor, "*bs 1"]:
        return torch.ones_like(positions[..., :1])

    @jaxtyped(typechecker=beartype)
    def color(self, feats: Float[Tensor, "rays k"], dirs: Float[Tensor, "rays 3"]) -> Float[Tensor, "rays 3"]:
        return torch.sigmoid(dirs)


field: Field = Constant()
field.density(torch.randn(4, 8, 3))
field.color(torch.randn(5, 2), torch.randn(5, 3))
