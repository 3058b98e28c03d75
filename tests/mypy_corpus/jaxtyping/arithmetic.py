"""Dims computed from names: `n+1`, `2*d`, `n-1`."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def append_zero(x: Float[Tensor, "n"]) -> Float[Tensor, "n+1"]:
    return torch.cat([x, torch.zeros(1)])


@jaxtyped(typechecker=beartype)
def pair(x: Float[Tensor, "b d"], y: Float[Tensor, "b d"]) -> Float[Tensor, "b 2*d"]:
    return torch.cat([x, y], dim=-1)


@jaxtyped(typechecker=beartype)
def differences(x: Float[Tensor, "n"]) -> Float[Tensor, "n-1"]:
    return x[1:] - x[:-1]


reveal_type(append_zero(torch.randn(4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[5]]"
reveal_type(pair(torch.randn(2, 3), torch.randn(2, 3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[6]]"
reveal_type(differences(torch.randn(7)))  # N: Revealed type is "torch._tensor.Tensor[Literal[6]]"
