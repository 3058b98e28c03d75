"""`F.layer_norm` / `F.rms_norm` check the trailing dims; `F.group_norm` the channel split."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def norms(x: Tensor[B, T, 64], w: Tensor[64], img: Tensor[B, 32, 8, 8]) -> None:
    reveal_type(F.layer_norm(x, (64,), w))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[64]]"
    reveal_type(F.rms_norm(x, [64]))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[64]]"
    reveal_type(F.group_norm(img, 8))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32], Literal[8], Literal[8]]"
    F.layer_norm(x, (32,))  # E: layer_norm  [tyr-shape]
    F.group_norm(img, 5)  # E: group_norm: the input's 32 channels do not split into num_groups=5 groups  [tyr-shape]
