"""A user's module whose `forward` writes no sizes (`-> torch.Tensor`), called in code with shapes: torch
types the call `Any`, which would leave what follows unchecked; there the call is the tensor `forward`
declares, of unknown shape, so a view that states its sizes is checked from then on.  Its arguments
stay unchecked, as torch's `__call__` leaves them; in code without shapes the call is still `Any`
(`tests/mypy_corpus/untouched/module_call_any.py`)."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")


class ChannelNorm(nn.Module):
    def __init__(self, c: int) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(c))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weight


class Pair(nn.Module):
    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return x, x


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.norm = ChannelNorm(d)
        self.pair = Pair()
        self.fc = nn.Linear(d, 2 * d)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        b, n, d = x.shape
        y = self.norm(x)
        reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
        y = y.view(b, n, d)
        reveal_type(self.fc(y))  # N: Revealed type is "torch._tensor.Tensor[B, N, tyr._static.DimExpr[Literal['2*D'], D]]"
        self.fc(y).view(b, n, d) + x  # E: view: shape [B, N, D] has B*D*N elements but the tensor (B, N, 2*D) has 2*B*D*N  [tyr-shape]
        reveal_type(self.pair(x))  # N: Revealed type is "Any"
        return self.norm(None) + x  # (unchecked, as torch's `__call__` leaves it)


def unknown_input(x: torch.Tensor, d: Dim[D]) -> None:
    """A torch module given a tensor of unknown shape: its result is a tensor of unknown shape (torch's
    `Any` only in code without shapes), so a view that states its sizes is checked after it."""
    fc = nn.Linear(d, 2 * d)
    y = fc(x)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(y.view(-1, 2 * d))  # N: Revealed type is "torch._tensor.Tensor[Any, tyr._static.DimExpr[Literal['2*D'], D]]"
