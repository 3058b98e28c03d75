"""Named dims: one name is one size per call, shared by the arguments and the return value."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def linear(x: Float[Tensor, "b c"], w: Float[Tensor, "c d"]) -> Float[Tensor, "b d"]:
    return x @ w


y = linear(torch.randn(4, 3), torch.randn(3, 5))
reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[5]]"
z = linear(y, torch.randn(5, 2))
reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[2]]"
linear(torch.randn(2, 7), torch.randn(7, 7))
