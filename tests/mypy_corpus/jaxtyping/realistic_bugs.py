"""Bugs of the kind jaxtyping-annotated rendering and attention code gets: each flagged where it is written."""

import einops
import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def combine_rgb(rgb: Float[Tensor, "*bs num_samples 3"], weights: Float[Tensor, "*bs num_samples 1"]) -> Float[Tensor, "*bs 3"]:
    return torch.sum(weights * rgb, dim=-1)  # E: Incompatible return value type  # summed over the colours, not the samples


@jaxtyped(typechecker=beartype)
def attention_pattern(q: Float[Tensor, "batch pos n_heads d_head"], k: Float[Tensor, "batch pos n_heads d_head"]) -> Float[Tensor, "batch n_heads pos pos"]:
    scores = einops.einsum(q, k, "batch q_pos n_heads d_head, batch k_pos n_heads d_head -> batch q_pos k_pos n_heads")
    return scores.softmax(dim=-1)  # E: Incompatible return value type  # the heads are last


@jaxtyped(typechecker=beartype)
def project(points: Float[Tensor, "n 3"], intrinsics: Float[Tensor, "3 3"]) -> Float[Tensor, "n 2"]:
    uvw = points @ intrinsics.T
    return uvw[:, :2] / uvw[:, 2:]


combine_rgb(torch.rand(4, 8, 3), torch.rand(4, 8, 1))  # raises
attention_pattern(torch.randn(2, 5, 4, 8), torch.randn(2, 5, 4, 8))  # raises
project(torch.randn(10, 3), torch.eye(3))
project(torch.randn(10, 3), torch.eye(4))  # E: Dimension 0 of argument "intrinsics" to "project": expected 3, got 4  # E: Dimension 1 of argument "intrinsics"  # raises
