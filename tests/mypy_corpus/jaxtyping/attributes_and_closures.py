"""A call's names stay in that call: an attribute assigned a parameter, or a closure, never mixes them up."""

from typing import reveal_type

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor, nn


class Splats(nn.Module):
    @jaxtyped(typechecker=beartype)
    def __init__(self, means: Float[Tensor, "N 3"], scales: Float[Tensor, "N 3"]) -> None:
        super().__init__()
        self.means = nn.Parameter(means)
        self.scales = scales

    @jaxtyped(typechecker=beartype)
    def forward(self, viewmats: Float[Tensor, "C 4 4"]) -> Float[Tensor, "C N 3"]:
        reveal_type(self.means)  # N: Revealed type is "torch.nn.parameter.Parameter[Any, Literal[3]]"
        means_c = torch.einsum("cij,nj->cni", viewmats[:, :3, :3], self.means)
        reveal_type(means_c)  # N: Revealed type is "torch._tensor.Tensor[C, Any, Literal[3]]"
        return means_c


@jaxtyped(typechecker=beartype)
def outer(x: Float[Tensor, "n"]) -> Float[Tensor, "n"]:
    @jaxtyped(typechecker=beartype)
    def inner(y: Float[Tensor, "m"]) -> Float[Tensor, "m"]:
        both = torch.cat([x, y])  # x is the enclosing call's: its n is not this call's m
        reveal_type(both)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['m + n'], m, n]]"
        return both[: y.shape[0]]

    reveal_type(inner(torch.zeros(3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3]]"
    return x


Splats(torch.randn(5, 3), torch.rand(5, 3))(torch.eye(4).expand(2, 4, 4))
outer(torch.zeros(4))
