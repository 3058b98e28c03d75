"""Functions annotated with jaxtyping used as values: mypy solves their names as it does a TypeVar's."""

import torch
from beartype import beartype
from jaxtyping import Float, jaxtyped
from torch import Tensor


@jaxtyped(typechecker=beartype)
def double(x: Float[Tensor, "n d"]) -> Float[Tensor, "n d"]:
    return 2 * x


def halve(x: Float[Tensor, "n d"]) -> Float[Tensor, "n d"]:
    return x / 2


for fn in (double, halve):
    fn(torch.randn(3, 4))
table = {"double": double, "halve": halve}
table["halve"](torch.randn(2, 2))
results = list(map(double, [torch.randn(1, 5), torch.randn(2, 5)]))
