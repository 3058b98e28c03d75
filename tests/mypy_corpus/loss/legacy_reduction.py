"""The legacy `size_average` / `reduce` flags of the losses override `reduction`, as torch's
`_Reduction.legacy_get_string` does: `reduce=False` keeps the elements, `size_average=False` sums."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")


def losses(x: Tensor[B, 4], y: Tensor[B, 4], labels: Tensor[B], flag: bool) -> None:
    reveal_type(F.mse_loss(x, y, reduce=False))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    reveal_type(F.mse_loss(x, y, size_average=False))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.l1_loss(x, y, None, False, "mean"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    reveal_type(F.cross_entropy(x, labels.long(), reduce=False))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(F.mse_loss(x, y, reduce=None, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    reveal_type(F.mse_loss(x, y, reduce=flag))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
