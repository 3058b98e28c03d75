"""A body whose result is not the annotated expression of the arguments' sizes."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def pair(x: Float[Tensor, "b d"], y: Float[Tensor, "b d"]) -> Float[Tensor, "b 2*d"]:
    return torch.cat([x, y], dim=0)  # E: Incompatible return value type


pair(torch.randn(2, 3), torch.randn(2, 3))  # raises
