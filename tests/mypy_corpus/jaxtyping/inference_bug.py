"""Shapes flow from one annotated function into the next: the mismatch is found where they meet."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def project(points: Float[Tensor, "n 3"], matrix: Float[Tensor, "3 k"]) -> Float[Tensor, "n k"]:
    return points @ matrix


@jaxtyped(typechecker=beartype)
def distances(a: Float[Tensor, "n 2"], b: Float[Tensor, "m 2"]) -> Float[Tensor, "n m"]:
    return torch.cdist(a, b)


uv = project(torch.randn(10, 3), torch.randn(3, 2))
distances(uv, uv)
uvw = project(torch.randn(10, 3), torch.randn(3, 3))
distances(uvw, uv)  # E: Dimension 1 of argument "a" to "distances": expected 2, got 3  # raises
