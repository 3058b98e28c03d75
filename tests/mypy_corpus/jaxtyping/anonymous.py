"""`_` is one dim of any size; `_name` too (the name is for the reader)."""

import torch
from beartype import beartype
from jaxtyping import Float, Int, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def first_rows(x: Float[Tensor, "_ d"], idx: Int[Tensor, "_rows"]) -> Float[Tensor, "_ d"]:
    return x[idx]


first_rows(torch.randn(10, 4), torch.tensor([0, 1, 2]))
first_rows(torch.randn(3, 4), torch.tensor([0, 0, 0, 0, 0]))
first_rows(torch.randn(3, 4, 1), torch.tensor([0]))  # E: has 3 dimensions  # raises
