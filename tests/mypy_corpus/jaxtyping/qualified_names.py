"""jaxtyping imported as a module (`jaxtyping.Float`, `jt.Float`) or under another name."""

import jaxtyping
import jaxtyping as jt
import torch
from beartype import beartype
from jaxtyping import Float as F
from jaxtyping import jaxtyped


@jaxtyped(typechecker=beartype)
def blend(a: jt.Float[torch.Tensor, "h w"], b: jaxtyping.Float[torch.Tensor, "h w"], t: F[torch.Tensor, ""]) -> F[torch.Tensor, "h w"]:
    return a * t + b * (1 - t)


blend(torch.randn(2, 3), torch.randn(2, 3), torch.tensor(0.5))
blend(torch.randn(2, 3), torch.randn(3, 2), torch.tensor(0.5))  # E: Dimension h of "blend"  # E: Dimension w of "blend"  # raises
blend(torch.randn(2, 3), torch.randn(2, 3), torch.tensor([0.5]))  # E: has 1 dimensions  # raises
