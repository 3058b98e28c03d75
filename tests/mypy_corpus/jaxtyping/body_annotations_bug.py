"""A local annotated with the signature's names must hold that shape."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def attention(q: Float[Tensor, "t d"], k: Float[Tensor, "s d"]) -> Float[Tensor, "t s"]:
    scores: Float[Tensor, "t s"] = k @ q.T  # E: Incompatible types in assignment
    return scores


attention(torch.randn(4, 8), torch.randn(4, 8))
attention(torch.randn(4, 8), torch.randn(6, 8))  # raises
