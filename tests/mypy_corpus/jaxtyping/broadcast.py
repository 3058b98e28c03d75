"""`#n` also accepts a size of 1 (which binds nothing); `*#batch` broadcasts with the other `*batch`es."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def shift(x: Float[Tensor, "n d"], bias: Float[Tensor, "#n d"]) -> Float[Tensor, "n d"]:
    return x + bias


@jaxtyped(typechecker=beartype)
def add(a: Float[Tensor, "*#batch"], b: Float[Tensor, "*#batch"]) -> Float[Tensor, "*batch"]:
    return a + b


shift(torch.randn(5, 2), torch.randn(1, 2))
shift(torch.randn(5, 2), torch.randn(5, 2))
shift(torch.randn(5, 2), torch.randn(3, 2))  # raises
shift(torch.randn(1, 2), torch.randn(1, 2))
add(torch.randn(4, 1), torch.randn(1, 3))
add(torch.randn(4, 2), torch.randn(3, 2))  # raises
