"""Sizes read from plain config ints are unknown, and never an error."""

from dataclasses import dataclass
from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


@dataclass(frozen=True)
class Config:
    n_embd: int = 64
    n_head: int = 4


def build(config: Config, x: Tensor[B, 10, 64]) -> None:
    proj = nn.Linear(config.n_embd, config.n_embd)
    reveal_type(proj)  # N: Revealed type is "torch.nn.modules.linear.Linear[Any, Any]"
    y = proj(x).view(x.shape[0], 10, config.n_head, -1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[10], Any, Any]"
