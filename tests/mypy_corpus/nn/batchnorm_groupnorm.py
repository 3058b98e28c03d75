"""`nn.BatchNorm1d/2d(C)` and `nn.GroupNorm(G, C)` check the channel dim."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")

bn2 = nn.BatchNorm2d(16)
bn1 = nn.BatchNorm1d(64)
gn = nn.GroupNorm(4, 16)
reveal_type(bn2)  # N: Revealed type is "torch.nn.modules.batchnorm.BatchNorm2d[Literal[16]]"


def run(img: Tensor[B, 16, 8, 8], feats: Tensor[B, 64]) -> None:
    reveal_type(bn2(img))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[8], Literal[8]]"
    reveal_type(bn1(feats))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[64]]"
    reveal_type(gn(img))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[8], Literal[8]]"
    bn2(torch.zeros(2, 8, 4, 4))  # E: batch_norm  [tyr-shape]
    nn.GroupNorm(3, 16)(img)  # E: group_norm: the input's 16 channels do not split into num_groups=3 groups  [tyr-shape]


def batch_norm_without_weight_or_stats(x: Tensor[B, 8, 5, 5]) -> None:
    # no weight and no running stats: torch normalizes whatever channels come (with a warning)
    reveal_type(nn.BatchNorm2d(16, affine=False, track_running_stats=False)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[5], Literal[5]]"
    nn.BatchNorm2d(16, affine=False)(x)  # E: batch_norm: running_mean (16,) must hold one value per channel (8) (in BatchNorm2d[16])


def group_count_from_config(x: Tensor[B, 16, 5], groups: int) -> None:
    """A group count that is a plain int (`32 if c % 32 == 0 else 1`): the input's shape, its channels checked."""
    norm = nn.GroupNorm(groups, 16)
    reveal_type(norm(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[5]]"
    norm(torch.zeros(2, 8, 5))  # E: group_norm
