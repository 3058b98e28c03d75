"""A name rebound on one path to a `Parameter` (a subclass of `Tensor`) of another shape: where the
paths meet it is a `Tensor`, the class both values are (vit-pytorch's register tokens, stacked
with other tensors afterwards).  Unannotated code: no error torch's own types would not give."""

from typing import reveal_type

import torch
from torch import nn


def tokens(use_registers: bool) -> torch.Tensor:
    t = torch.zeros(2, 0)
    if use_registers:
        t = nn.Parameter(torch.zeros(4))
    reveal_type(t)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]] | torch.nn.parameter.Parameter[Literal[4]]"
    return torch.stack([t])


def same_rank(flag: bool) -> None:
    u = torch.zeros(3, 4)
    if flag:
        u = nn.Parameter(torch.zeros(3, 5))
    reveal_type(u)  # N: Revealed type is "torch.nn.parameter.Parameter[Literal[3], Literal[5]] | torch._tensor.Tensor[Literal[3], Any]"
    torch.stack([u])


def parameter_viewed_in_a_branch(w: nn.Parameter, flag: bool) -> None:
    v = torch.zeros(2, 3)
    if flag:
        v = w.view(2, 3)
    reveal_type(v)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
    u = torch.zeros(3, 4)
    if flag:
        u = nn.Parameter(torch.zeros(5))  # another rank, on one path: declared a Tensor, not a Parameter
    torch.stack([u])


def register_tokens(p: nn.Parameter, batch: int, flag: bool) -> torch.Tensor:
    """vit-pytorch's VAT: a name first given a plain tensor through another name (no hook runs there),
    then on one path a `Parameter` (einops types `repeat` of a parameter as one)."""
    empty = torch.zeros(batch, 0, 8)
    tokens = empty
    if flag:
        tokens = nn.Parameter(torch.zeros(batch, 4, 8))
    hiddens = [tokens]
    return torch.stack(hiddens)
