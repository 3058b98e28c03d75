"""`F.mse_loss` and `F.l1_loss` reduce to a 0-d tensor; `binary_cross_entropy` needs equal shapes."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def losses(pred: Tensor[B, 1], target: Tensor[B, 1], other: Tensor[B, 3]) -> None:
    reveal_type(F.mse_loss(pred, target))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.l1_loss(pred, target, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    reveal_type(F.binary_cross_entropy_with_logits(pred, target))  # N: Revealed type is "torch._tensor.Tensor[()]"
    F.binary_cross_entropy(pred, other)  # E: binary_cross_entropy  [tyr-shape]
    F.mse_loss(torch.zeros(3), torch.zeros(4))  # E: mse_loss  [tyr-shape]
