"""Two arguments that disagree on `*batch` are an error."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def dot3(a: Float[Tensor, "*batch 3"], b: Float[Tensor, "*batch 3"]) -> Float[Tensor, "*batch"]:
    return (a * b).sum(dim=-1)


dot3(torch.randn(4, 5, 3), torch.randn(4, 5, 3))
dot3(torch.randn(4, 5, 3), torch.randn(4, 6, 3))  # E: Dimension *batch of "dot3"  # raises
dot3(torch.randn(4, 5, 3), torch.randn(5, 3))  # E: Dimension *batch of "dot3"  # raises
