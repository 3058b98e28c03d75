"""`nn.ChannelShuffle(groups)` keeps the shape of an `(N, C, *)` input whose channels split into `groups`."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
G = TypeVar("G")


def run(x: Tensor[B, 6, 4, 4], y: Tensor[B, C, 8], g: Dim[G], n: int) -> None:
    reveal_type(nn.ChannelShuffle(3))  # N: Revealed type is "torch.nn.modules.channelshuffle.ChannelShuffle[Literal[3]]"
    reveal_type(nn.ChannelShuffle(3)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[4], Literal[4]]"
    reveal_type(nn.ChannelShuffle(g))  # N: Revealed type is "torch.nn.modules.channelshuffle.ChannelShuffle[G]"
    reveal_type(nn.ChannelShuffle(g)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[4], Literal[4]]"
    reveal_type(nn.ChannelShuffle(n)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[4], Literal[4]]"
    reveal_type(nn.ChannelShuffle(4)(y))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[8]]"
    reveal_type(nn.ChannelShuffle(6)(torch.zeros(1, 6, 1, 1, 1)))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[6], Literal[1], Literal[1], Literal[1]]"
    reveal_type(nn.ChannelShuffle(3)(torch.zeros(2, 0, 4)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[0], Literal[4]]"
    reveal_type(F.channel_shuffle(y, g))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[8]]"
    nn.ChannelShuffle(4)(x)  # E: channel_shuffle: the channel count (dim 1) 6 must be divisible by 4 (in ChannelShuffle[4])  [tyr-shape]
    nn.ChannelShuffle(12)(x)  # E: channel_shuffle: the channel count (dim 1) 6 must be divisible by 12 (in ChannelShuffle[12])  [tyr-shape]
    nn.ChannelShuffle(4)(torch.zeros(0, 6, 0))  # E: channel_shuffle: the channel count (dim 1) 6 must be divisible by 4  [tyr-shape]
    nn.ChannelShuffle(0)(x)  # E: channel_shuffle: groups must be positive, got 0 (in ChannelShuffle[0])  [tyr-shape]
    nn.ChannelShuffle(n)(torch.zeros(2, 6))  # E: channel_shuffle: the input (2, 6) must have more than 2 dims (N, C, *) (in ChannelShuffle[?])  [tyr-shape]
