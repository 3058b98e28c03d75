"""What the checker cannot read gives the bare `Tensor`, never the input's shape."""

from typing import Any, Final, TypeVar, reveal_type

import torch
from einops import pack, rearrange, reduce, unpack

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")

PATTERN: Final = "b n d -> n b d"


def unknowns(x: Tensor[B, N, D], pattern: str, lengths: dict[str, Any], param: torch.nn.Parameter) -> None:
    reveal_type(rearrange(x, pattern))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(rearrange(x, "b n (h d) -> b h n d", **lengths))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(reduce(x, "b n d -> b d", torch.amax))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(reduce(x, "b n d -> b d", pattern))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(rearrange(x, PATTERN))  # N: Revealed type is "torch._tensor.Tensor[N, B, D]"
    # einops' own type keeps the input's class (`Parameter`), as mypy without tyr does
    reveal_type(rearrange(param, "n d -> d n"))  # N: Revealed type is "torch.nn.parameter.Parameter[Any, Any]"
    reveal_type(rearrange([x, x], "s b n d -> b n (s d)"))  # N: Revealed type is "torch._tensor.Tensor[B, N, tyr._static.DimExpr[Literal['2*D'], D]]"


def unknown_pack(x: Tensor[B, N, D], pattern: str) -> None:
    packed, ps = pack([x, x], pattern)
    reveal_type(packed)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(unpack(packed, ps, pattern))  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"
    reveal_type(unpack(x, ps, "b * d"))  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"


def union_input(x: Tensor[B, N, D] | None, mask: Any = None) -> None:
    """An untyped `mask=None` given a tensor is `Any | Tensor[2, 8]`: its tensor's old shape is not the result's."""
    if mask is None:
        mask = torch.ones(2, 8)
    mask = rearrange(mask, "b n -> b 1 n")
    reveal_type(mask)  # N: Revealed type is "Any | torch._tensor.Tensor[*tuple[Any, ...]]"
    print(mask + torch.zeros(2, 4, 8))
