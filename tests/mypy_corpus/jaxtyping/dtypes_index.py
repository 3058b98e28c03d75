"""The dtype part is read where tyr reads dtypes: an `Int` index gathers, a `Bool` index picks elements."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Bool, Float, Int, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def select(x: Float[Tensor, "n d"], rows: Int[Tensor, "n"], keep: Bool[Tensor, "n d"], scores: Float[Tensor, "n"]) -> Float[Tensor, "n d"]:
    reveal_type(x[rows])  # N: Revealed type is "torch._tensor.Tensor[n, d]"
    reveal_type(x[keep])  # N: Revealed type is "torch._tensor.Tensor[Any]"
    reveal_type(x[scores > 0])  # N: Revealed type is "torch._tensor.Tensor[Any, d]"
    return x[rows]


select(torch.randn(3, 2), torch.tensor([2, 0, 1]), torch.ones(3, 2, dtype=torch.bool), torch.randn(3))
