"""A named dim bound to two sizes in one call is an error on the line of the call."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def linear(x: Float[Tensor, "b c"], w: Float[Tensor, "c d"]) -> Float[Tensor, "b d"]:
    return x @ w


x = torch.randn(4, 3)
linear(x, torch.randn(3, 5))
linear(x, torch.randn(4, 5))  # E: Dimension c of "linear": bound to 3 by argument "x", but argument "w" has 4  # raises
