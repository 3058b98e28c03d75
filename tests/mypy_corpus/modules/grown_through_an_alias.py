"""A container grown through another local that holds it (`alias = seq`, then `alias.append(m)`) is grown
under every such name: the `nn.Sequential`'s chain is unknown from then on, and a list's items join to
what was added (a function it is passed to is not followed: README, known limits)."""

from typing import reveal_type

import torch
from torch import nn

from tyr import Tensor


def grown(x: Tensor[2, 4]) -> None:
    seq = nn.Sequential(nn.Linear(4, 8), nn.Linear(8, 5))
    reveal_type(seq(x))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5]]"
    alias = seq
    alias.append(nn.Linear(5, 13))
    reveal_type(seq(x))  # N: Revealed type is "Any"
    outs = [torch.zeros(3)]
    other = outs
    other.append(torch.zeros(5))
    reveal_type(outs[1])  # N: Revealed type is "torch._tensor.Tensor[Any]"
    first = nn.Sequential(nn.Linear(4, 8))
    middle = first
    last = middle
    last.append(nn.Linear(8, 3))
    reveal_type(first(x))  # N: Revealed type is "Any"
