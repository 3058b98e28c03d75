"""Inside a body the names are the call's: a transposed value is not the annotated shape."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def outer(x: Float[Tensor, "n d"]) -> Float[Tensor, "d n"]:
    return x.T


@jaxtyped(typechecker=beartype)
def twice(x: Float[Tensor, "n d"]) -> Float[Tensor, "n d"]:
    return outer(x)  # E: Incompatible return value type (got "Tensor[d, n]", expected "Tensor[n, d]")


twice(torch.randn(3, 3))
twice(torch.randn(2, 3))  # raises
