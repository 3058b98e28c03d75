"""Expressions tyr's arithmetic cannot read (`min(a,b)`, `a/2`, `{arg}`) are unknown statically, evaluated at runtime."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def crop(x: Float[Tensor, "a b"]) -> Float[Tensor, "min(a,b) min(a,b)"]:
    n = min(x.shape)
    return x[:n, :n]


@jaxtyped(typechecker=beartype)
def halves(x: Float[Tensor, "n"]) -> Float[Tensor, "n/2 2"]:
    return x.view(-1, 2)


@jaxtyped(typechecker=beartype)
def window(x: Float[Tensor, "{size}"], size: int) -> Float[Tensor, "{size}"]:
    return x.flip(0)


reveal_type(crop(torch.randn(3, 5)))  # N: Revealed type is "torch._tensor.Tensor[Any, Any]"
halves(torch.randn(8))
window(torch.randn(4), 4)
window(torch.randn(4), 5)  # raises
