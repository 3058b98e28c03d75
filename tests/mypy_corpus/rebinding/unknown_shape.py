"""SHAPES.md §6: a name rebound to a value of unknown shape is unknown from there on, never a union of old and new."""

from dataclasses import dataclass
from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
V = TypeVar("V")


@dataclass
class Config:
    vocab: int = 100


def plain_helper(x: torch.Tensor) -> torch.Tensor:
    return x


class Head(nn.Module, Generic[D, V]):
    def __init__(self, d: Dim[D], v: Dim[V], config: Config) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.out = nn.Linear(config.vocab, config.vocab)  # sizes unknown to the checker

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, V]:
        x = self.norm(x)
        x = self.out(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, Any]"
        return x

    def through_helper(self, x: Tensor[B, T, D]) -> Tensor[B, T, V]:
        x = plain_helper(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
        x = x.view(x.shape[0], x.shape[1], -1)
        return x[:, 1:]  # no error: the first size is unknown now

    def known_again(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        x = self.out(x)
        x = self.norm(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
        return x

    def only_sometimes(self, x: Tensor[B, T, D], flag: bool) -> Tensor[B, T, D]:
        if flag:
            x = self.out(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, T, Any]"
        return x


def still_checked(x: Tensor[B, 4], w: Tensor[5, 6]) -> None:
    x = plain_helper(x)
    x = torch.zeros(3, 4)
    x @ w  # E: @: dimension 1 of the left operand (4) does not match dimension 0 of the right operand (5)  [tyr-shape]


def rebound_to_a_piece(y: Tensor[B, D, T], z: Tensor[B, T, D]) -> None:
    """An item of a call's tuple (`split(...)[-1]`, `unbind(...)[0]`) rebinds the name as the call would."""
    y = y.split(3, dim=-1)[-1]
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, D, Any]"
    z = torch.unbind(z.permute(1, 0, 2), dim=0)[0]
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[B, D]"
