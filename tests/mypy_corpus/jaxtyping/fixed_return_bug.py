"""A body that returns another shape than its annotation says is flagged in the body."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def to_homogeneous(points: Float[Tensor, "n 3"]) -> Float[Tensor, "n 4"]:
    return torch.cat([points, torch.ones(points.shape[0], 2)], dim=1)  # E: Incompatible return value type


to_homogeneous(torch.randn(10, 3))  # raises
