"""`*batch` is any number of dims, the same in every argument of one call."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def dot3(a: Float[Tensor, "*batch 3"], b: Float[Tensor, "*batch 3"]) -> Float[Tensor, "*batch"]:
    return (a * b).sum(dim=-1)


reveal_type(dot3(torch.randn(4, 5, 3), torch.randn(4, 5, 3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[5]]"
reveal_type(dot3(torch.randn(3), torch.randn(3)))  # N: Revealed type is "torch._tensor.Tensor[()]"
dot3(torch.randn(2, 3), torch.randn(2, 3))
