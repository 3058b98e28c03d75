"""Loss modules called are their functional form (`nn.MSELoss()(x, t)` is `F.mse_loss(x, t)`) with the module's
`reduction` (the constructor's, "mean" by default) and, for `nn.CrossEntropyLoss` / `nn.NLLLoss`, its class
weight; `ignore_index` and `label_smoothing` leave the shapes alone.  The legacy `size_average` / `reduce`
leave the reduction, so the result's shape, unknown."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


def losses(logits: Tensor[B, 10], labels: Tensor[B], pred: Tensor[B, 10], target: Tensor[B, 10]) -> None:
    reveal_type(nn.MSELoss()(pred, target))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(nn.MSELoss(reduction="none")(pred, target))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[10]]"
    reveal_type(nn.SmoothL1Loss(reduction="sum", beta=0.5)(pred, target))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(nn.BCEWithLogitsLoss(reduction="none")(logits, target))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[10]]"
    reveal_type(nn.CrossEntropyLoss()(logits, labels))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(nn.CrossEntropyLoss(reduction="none", ignore_index=0, label_smoothing=0.1)(logits, labels))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(nn.NLLLoss(weight=torch.ones(10), reduction="none")(logits, labels))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(nn.KLDivLoss(reduction="batchmean")(pred, target))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(nn.CosineEmbeddingLoss(reduction="none")(pred, target, labels))  # N: Revealed type is "torch._tensor.Tensor[B]"
    criterion = nn.CrossEntropyLoss(reduction="sum")
    reveal_type(criterion(logits, labels))  # N: Revealed type is "torch._tensor.Tensor[()]"
    nn.MSELoss()(pred, torch.ones(3, 7))  # E: mse_loss: dimension 1 of the input (10) does not broadcast with dimension 1 of the target (7); shapes (B, 10) and (3, 7) (in MSELoss['mean'])  [tyr-shape]
    nn.BCELoss(reduction="none")(pred, labels)  # E: binary_cross_entropy: the target must have shape (B, 10), got (B,) (in BCELoss['none'])  [tyr-shape]
    nn.CrossEntropyLoss(weight=torch.ones(5))(logits, labels)  # E: cross_entropy: the class weight must have shape (10,), got (5,) (in CrossEntropyLoss['mean', (5,)])  [tyr-shape]
    criterion(logits, logits[:, :3])  # E: cross_entropy: a target of class probabilities must have shape (B, 10), got (B, 3) (in CrossEntropyLoss['sum', None])  [tyr-shape]
    nn.MSELoss(reduce=False)(pred, torch.ones(3, 7))  # E: mse_loss: dimension 1 of the input (10) does not broadcast with dimension 1 of the target (7); shapes (B, 10) and (3, 7) (in MSELoss[?])  [tyr-shape]
