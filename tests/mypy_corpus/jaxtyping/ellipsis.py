"""`...` is any number of dims bound to nothing: each argument has its own."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def scale(x: Float[Tensor, "... 3"], s: Float[Tensor, "..."]) -> Float[Tensor, "... 3"]:
    return x * s.mean()


scale(torch.randn(2, 3), torch.randn(7))
scale(torch.randn(3), torch.randn(4, 5))
scale(torch.randn(8, 2, 3), torch.randn(()))
scale(torch.randn(8, 2, 4), torch.randn(()))  # raises
