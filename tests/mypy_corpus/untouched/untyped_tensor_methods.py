"""Tensor methods torch leaves untyped (`split`, `unflatten`, `backward`) give `Any`, as in torch,
wherever tyr knows no shape: a split assigned to a name that may also hold a list is no error."""

from typing import reveal_type

import torch


def pieces(x: torch.Tensor | list[torch.Tensor], sizes: tuple[int, ...]) -> int:
    if isinstance(x, torch.Tensor):
        x = x.split(sizes, dim=1)
    return len(x)


def heads(x: torch.Tensor, n_head: int) -> None:
    reveal_type(x.unflatten(-1, (n_head, -1)))  # N: Revealed type is "Any"
    loss = x.sum()
    done = loss.backward()
    print(done)
