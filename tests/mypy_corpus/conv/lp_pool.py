"""`F.lp_pool{1,2,3}d` and `nn.LPPool{1,2,3}d`: an average pool without padding, whatever the norm."""

from typing import TypeVar, reveal_type

import torch.nn as nn
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def pools(x: Tensor[B, 4, "2*T"], y: Tensor[B, 3, 8, 9], z: Tensor[B, 2, 4, 4, 4]) -> None:
    reveal_type(F.lp_pool1d(x, 2.0, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], T]"
    reveal_type(F.lp_pool2d(y, 2.0, 3, stride=(2, 3)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[3], Literal[3]]"
    reveal_type(F.lp_pool2d(y, float("inf"), 2, ceil_mode=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4], Literal[5]]"
    reveal_type(F.lp_pool3d(z, 1, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], Literal[2], Literal[2], Literal[2]]"
    reveal_type(nn.LPPool1d(2, 2)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], T]"
    reveal_type(nn.LPPool2d(2, (2, 3))(y))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4], Literal[3]]"


def bad(x: Tensor[B, 4, "2*T"], y: Tensor[B, 3, 8, 9], m: Tensor[B, T]) -> None:
    F.lp_pool2d(m, 2.0, 2)  # E: lp_pool2d: expected a 3-d (unbatched) or 4-d (batched) input, got (B, T)  [tyr-shape]
    F.lp_pool1d(x, 2.0, (2,))  # E: lp_pool1d: kernel_size must be a single int, got [2]  [tyr-shape]
    nn.LPPool2d(2, 10)(y)  # E: lp_pool2d: spatial dim 0 of the input (8) leaves an output of size 0; too small (in LPPool2d[10, None, False])  [tyr-shape]
