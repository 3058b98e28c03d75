"""`nn.InstanceNorm{1,2,3}d`: torch checks the rank always, and the channels only with `affine=True`."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


def batched(x: Tensor[B, 6, 9], affine: bool) -> None:
    reveal_type(nn.InstanceNorm1d(6, affine=True))  # N: Revealed type is "torch.nn.modules.instancenorm.InstanceNorm1d[Literal[6]]"
    reveal_type(nn.InstanceNorm1d(6, affine=True)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[9]]"
    nn.InstanceNorm1d(7, affine=True)(x)  # E: instance_norm1d: dimension 1 of the input (B, 6, 9) is 6 channels, but num_features is 7 (in InstanceNorm1d[7])  [tyr-shape]
    # without affine weights torch only warns; with a flag of unknown value it may do either
    reveal_type(nn.InstanceNorm1d(7))  # N: Revealed type is "torch.nn.modules.instancenorm.InstanceNorm1d[Any]"
    nn.InstanceNorm1d(7)(x)
    nn.InstanceNorm1d(7, affine=affine)(x)
    reveal_type(nn.LazyInstanceNorm1d()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[9]]"
    # an unbatched input: (C, L)
    reveal_type(nn.InstanceNorm1d(6, affine=True)(x[0]))  # N: Revealed type is "torch._tensor.Tensor[Literal[6], Literal[9]]"


def unbatched() -> None:
    nn.InstanceNorm2d(3, affine=True)(torch.zeros(4, 8, 8))  # E: instance_norm2d: dimension 0 of the input (4, 8, 8) is 4 channels, but num_features is 3 (in InstanceNorm2d[3])  [tyr-shape]


def ranks() -> None:
    nn.InstanceNorm1d(8)(torch.zeros(4, 8, 2, 2))  # E: instance_norm1d: expected a 2D or 3D input, got (4, 8, 2, 2)  [tyr-shape]
    nn.InstanceNorm3d(8)(torch.zeros(4, 8, 2))  # E: instance_norm3d: expected a 4D or 5D input, got (4, 8, 2)  [tyr-shape]
