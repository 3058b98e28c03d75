"""Names are scoped to one call: each function, and each call of it, binds its own."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def outer(x: Float[Tensor, "n d"]) -> Float[Tensor, "d n"]:
    return x.T


@jaxtyped(typechecker=beartype)
def twice(x: Float[Tensor, "n d"]) -> Float[Tensor, "n d"]:
    y = outer(x)  # inside, outer's n is this call's d: a fresh binding
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[d, n]"
    return outer(y)


reveal_type(twice(torch.randn(2, 5)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5]]"
twice(torch.randn(3, 3))
outer(torch.randn(4, 1))
