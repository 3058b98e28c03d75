"""Optional tensors and tuples of tensors share the call's names."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Bool, Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def masked_scores(
    q: Float[Tensor, "t d"], k: Float[Tensor, "s d"], mask: Bool[Tensor, "t s"] | None = None
) -> tuple[Float[Tensor, "t s"], Float[Tensor, "t"]]:
    scores = q @ k.T
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return scores, scores.max(dim=-1).values


scores, best = masked_scores(torch.randn(3, 4), torch.randn(5, 4))
reveal_type(scores)  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[5]]"
reveal_type(best)  # N: Revealed type is "torch._tensor.Tensor[Literal[3]]"
masked_scores(torch.randn(3, 4), torch.randn(5, 4), torch.ones(3, 5, dtype=torch.bool))
masked_scores(torch.randn(3, 4), torch.randn(5, 4), torch.ones(5, 3, dtype=torch.bool))  # E: Dimension t of "masked_scores"  # E: Dimension s of "masked_scores"  # raises
