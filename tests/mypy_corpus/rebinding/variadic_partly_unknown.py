"""A name of a variadic shape rebound to a partly unknown size (`x = nn.Linear(8, k)(x)` on `Tensor[*Bs, 8]`)
holds the new value, not a union with a shape mypy's narrowing makes up (`Tensor[*tuple[Never, ...]]`)."""

from typing import Any, TypeVarTuple, reveal_type

from torch import nn

from tyr import Tensor

Bs = TypeVarTuple("Bs")


def variadic(x: Tensor[*Bs, 8], k: int) -> Tensor[*Bs, Any]:
    x = nn.Linear(8, k)(x)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*Bs, Any]"
    return x
