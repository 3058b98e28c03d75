"""`nn.LayerNorm(d)` and `nn.RMSNorm(d)` normalise the last dims; they must be `d`."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")

ln = nn.LayerNorm(64)
reveal_type(ln)  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[Literal[64]]"
rms = nn.RMSNorm([8, 64])
reveal_type(rms)  # N: Revealed type is "torch.nn.modules.normalization.RMSNorm[Literal[8], Literal[64]]"


def norm(x: Tensor[B, 8, 64]) -> None:
    reveal_type(ln(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[64]]"
    reveal_type(rms(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[64]]"
    ln(torch.zeros(2, 32))  # E: layer_norm  [tyr-shape]


def width_from_config(x: Tensor[B, T, D], width: int) -> None:
    """One plain int is one normalized dim of unknown size: the result keeps the input's shape."""
    reveal_type(nn.LayerNorm(width)(x))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    nn.LayerNorm(width)(torch.zeros(()))  # E: layer_norm
