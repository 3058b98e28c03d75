"""A name rebound in a branch that then returns, raises, breaks or continues: the code the other paths
run (the `else`, what follows the `if`, the rest of the loop's body) reads the shape it had, not a
union with the new one."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
S = TypeVar("S")
D = TypeVar("D")


def else_branch(x: Tensor[B, S, D], flag: bool) -> Tensor[B, D]:
    y = x.mean(1)
    if flag:
        y = x.flatten(1)
        return y[:, : x.shape[2]]
    else:
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, D]"
        return y * x[:, 0]


def early_return(x: Tensor[B, S, D], flag: bool) -> Tensor[B, D]:
    y = x.mean(1)
    if flag:
        y = x.flatten(1)
        raise ValueError(y.shape)
    return y


def after_break(x: Tensor[B, S, D], n: int) -> Tensor[B, D]:
    y = x.mean(1)
    for i in range(n):
        if i == 2:
            y = x.flatten(1)
            break
        y = y * x[:, 0]
    return y[:, : x.shape[2]]


def still_checked_after_the_branch(x: Tensor[B, S, D], flag: bool) -> Tensor[B, D]:
    y = x.mean(1)
    if flag:
        y = x.flatten(1)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D*S'], D, S]]"
        z = y + x[:, 0]  # E: +: dimension 1 of the left operand (D*S) does not broadcast with dimension 1 of the right operand (D); shapes (B, D*S) and (B, D)  [tyr-shape]
        reveal_type(z)  # N: Revealed type is "Any"
        return y[:, : x.shape[2]]
    return y


def parameter_rebound_then_returned(logits: torch.Tensor | list[torch.Tensor], targets: torch.Tensor) -> torch.Tensor:
    """A parameter without shape rebound in a branch that returns (litgpt's `chunked_cross_entropy`):
    its declaration stays what the other paths read, of unknown shape, not the branch's 1-d."""
    if isinstance(logits, list):
        if len(logits) == 1:
            targets = targets.reshape(-1)
            return torch.nn.functional.cross_entropy(logits[0], targets)
        reveal_type(targets)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
        first: torch.Tensor = targets.split(logits[0].size(1), dim=1)[0]
        return first
    return logits
