"""Fixed sizes are checked as written; a rank is part of the shape."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def to_homogeneous(points: Float[Tensor, "n 3"]) -> Float[Tensor, "n 4"]:
    return torch.cat([points, torch.ones(points.shape[0], 1)], dim=1)


to_homogeneous(torch.randn(10, 3))
to_homogeneous(torch.randn(10, 4))  # E: Dimension 1 of argument "points" to "to_homogeneous": expected 3, got 4  # raises
to_homogeneous(torch.randn(2, 10, 3))  # E: has 3 dimensions  # raises
