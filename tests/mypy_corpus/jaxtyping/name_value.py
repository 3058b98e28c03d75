"""`rows=3` documents the name of a fixed size: the dim is 3."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def rotate(rotation: Float[Tensor, "rows=3 cols=3"], points: Float[Tensor, "n xyz=3"]) -> Float[Tensor, "n 3"]:
    return points @ rotation.T


rotate(torch.eye(3), torch.randn(6, 3))
rotate(torch.eye(4), torch.randn(6, 3))  # E: Dimension 0 of argument "rotation" to "rotate": expected 3, got 4  # E: Dimension 1 of argument "rotation"  # raises
