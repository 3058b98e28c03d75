"""A nested function has its own names, even when they are spelled like its parent's."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def pairwise(x: Float[Tensor, "n d"]) -> Float[Tensor, "n n"]:
    @jaxtyped(typechecker=beartype)
    def gram(y: Float[Tensor, "d n"]) -> Float[Tensor, "d d"]:
        return y @ y.T

    reveal_type(gram(x))  # N: Revealed type is "torch._tensor.Tensor[n, n]"
    return gram(x)


pairwise(torch.randn(4, 2))
