"""`nn.Conv1d` over `(N, C, L)`."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")

conv = nn.Conv1d(4, 8, kernel_size=3, padding=1)


def run(x: Tensor[B, 4, L]) -> None:
    reveal_type(conv(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], L]"
