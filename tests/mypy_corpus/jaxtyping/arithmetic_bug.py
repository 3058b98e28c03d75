"""An argument whose size is an expression of earlier names must have that size."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def interpolate(knots: Float[Tensor, "n"], values: Float[Tensor, "n+1"]) -> Float[Tensor, "n"]:
    return knots * (values[1:] - values[:-1])


interpolate(torch.randn(4), torch.randn(5))
interpolate(torch.randn(4), torch.randn(4))  # E: Dimension 0 of argument "values" to "interpolate": expected 5, got 4  # raises
