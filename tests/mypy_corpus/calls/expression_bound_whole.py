"""A size expression no argument can solve (`"B*NW"`, neither factor given alone) is bound as a whole:
the same expression elsewhere in the call, the result included, is that size; never an error."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
NW = TypeVar("NW")
H = TypeVar("H")


def windows(x: Tensor["B*NW", 4]) -> Tensor["B*NW", 4]:
    return x


def split_windows(x: Tensor["B*NW", 4], b: Dim[B]) -> Tensor[NW, 4]:
    return x[: x.shape[0] // b]


def pair(x: Tensor["B*NW", 4], y: Tensor["B*NW", 4]) -> None:
    pass


reveal_type(windows(torch.zeros(6, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[6], Literal[4]]"
reveal_type(split_windows(torch.zeros(6, 4), 2))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[4]]"
pair(torch.zeros(6, 4), torch.zeros(6, 4))
pair(torch.zeros(6, 4), torch.zeros(7, 4))  # E: Dimension 0 of argument "y" to "pair": expected 6, got 7  [tyr-shape]


def symbolic(y: Tensor[H, 4]) -> None:
    reveal_type(windows(y))  # N: Revealed type is "torch._tensor.Tensor[H, Literal[4]]"
