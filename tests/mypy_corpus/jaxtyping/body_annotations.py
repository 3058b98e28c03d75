"""Annotations in a body use the signature's names; other names there are unknown sizes."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def attention(q: Float[Tensor, "t d"], k: Float[Tensor, "s d"]) -> Float[Tensor, "t s"]:
    scores: Float[Tensor, "t s"] = q @ k.T
    weights: Float[Tensor, "t s"] = scores.softmax(dim=-1)
    other: Float[Tensor, "m d"] = torch.cat([q, k])  # m: not a name of the signature, unknown
    reveal_type(other)  # N: Revealed type is "torch._tensor.Tensor[Any, d]"
    return weights


attention(torch.randn(4, 8), torch.randn(6, 8))
