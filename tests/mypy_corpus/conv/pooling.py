"""`F.max_pool2d` and `F.avg_pool2d`: stride defaults to the kernel."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")


def pools(x: Tensor[B, 16, 32, 32], y: Tensor[B, 16, "2*H", "2*H"]) -> None:
    reveal_type(F.max_pool2d(x, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[16], Literal[16]]"
    reveal_type(F.avg_pool2d(x, 3, stride=1, padding=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[32], Literal[32]]"
    reveal_type(F.max_pool2d(y, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], H, H]"
    reveal_type(F.max_pool2d(x, 3, ceil_mode=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16], Literal[11], Literal[11]]"
