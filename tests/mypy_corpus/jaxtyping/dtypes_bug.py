"""A tensor of another dtype: tyr's types carry no dtype, so this is caught when the program runs."""

import torch
from beartype import beartype
from jaxtyping import Bool, Float, Int, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def masked_mean(x: Float[Tensor, "n d"], mask: Bool[Tensor, "n"]) -> Float[Tensor, "d"]:
    return x[mask].mean(dim=0)


@jaxtyped(typechecker=beartype)
def count(labels: Int[Tensor, "n"]) -> Int[Tensor, ""]:
    return (labels > 0).sum()


masked_mean(torch.randn(5, 3), torch.tensor([1, 0, 1, 1, 0]))  # raises
masked_mean(torch.randn(5, 3).int(), torch.tensor([True, False, True, True, False]))  # raises
count(torch.tensor([1, 0, 2], dtype=torch.uint8))  # raises
