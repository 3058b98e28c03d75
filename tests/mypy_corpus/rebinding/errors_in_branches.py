"""A shape error on the value that rebinds a parameter is reported inside a branch or a loop too.

With `allow_redefinition`, mypy types the value of a parameter's assignment a second time when the
first try gave errors, and keeps the second if it gives none: the read of the parameter in that
second try must still give the shape it had before the assignment.  After the error the name is
of unknown shape, with no second error further down.
"""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")


def added_in_a_branch(x: Tensor[B, N, D], m: Tensor[B, 3], flag: bool) -> Tensor[B, N, D]:
    if flag:
        x = x + m  # E: +: dimension 2 of the left operand (D) does not broadcast with dimension 1 of the right operand (3); shapes (B, N, D) and (B, 3)  [tyr-shape]
    return x


def multiplied_in_a_loop(x: Tensor[B, N, D], w: Tensor[3, 4]) -> None:
    for _ in range(2):
        x = x @ w  # E: @: dimension 2 of the left operand (D) does not match dimension 0 of the right operand (3)  [tyr-shape]
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]] | Any"


def three_wide(x: Tensor[B, 3]) -> Tensor[B, 3]:
    return x


def called_in_a_while_loop(x: Tensor[B, 5], steps: int) -> None:
    while steps:
        x = three_wide(x)  # E: Dimension 1 of argument "x" to "three_wide": expected 3, got 5  [tyr-shape]
        steps -= 1


def correct_in_a_branch(x: Tensor[B, N, D], m: Tensor[B, N, 1], flag: bool) -> Tensor[B, N, D]:
    if flag:
        x = x * m
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, N, D]"
    return x


def rank_changed_in_a_loop(y: Tensor[6, D], noise: Tensor[5, 6, D]) -> None:
    """No error: after the loop the name is of unknown shape, and no stale shape comes back later."""
    for _ in range(1):
        y = y + noise
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    y = y.unsqueeze(0) if y.numel() >= 0 else y.unsqueeze(0).contiguous()
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
