"""A tensor name rebound to an item read from a container (`x = outs[-1]`, `h = hs.pop()`, `x = feats["p3"]`):
the item's shape, unknown for a `list[Tensor]`, replaces the old one.  mypy would meet the name's old
shape with the item's unknown one and read the old shape back (a union that fails the return)."""

from typing import Mapping, Sequence, TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def last_hidden(x: Tensor[B, H], hiddens: list[torch.Tensor]) -> Tensor[B, 3]:
    x = hiddens[-1]
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    return x


def popped(x: Tensor[B, H], skips: list[torch.Tensor]) -> Tensor[B, 3]:
    x = skips.pop()
    return x


def by_name(x: Tensor[B, H], feats: dict[str, torch.Tensor], more: Mapping[str, torch.Tensor]) -> Tensor[B, 3]:
    x = feats["p3"]
    x = more["p4"]
    return x


def from_a_sequence(x: Tensor[B, H], outs: Sequence[Tensor[B, 3]]) -> Tensor[B, 3]:
    x = outs[0]
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    return x


def still_checked(x: Tensor[B, H], outs: list[Tensor[B, 4]]) -> Tensor[B, 3]:
    x = outs[0]
    return x  # E: Incompatible return value type (got "Tensor[B, Literal[4]]", expected "Tensor[B, Literal[3]]")  [return-value]
