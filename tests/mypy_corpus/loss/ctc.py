from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor

T = TypeVar("T")
N = TypeVar("N")
C = TypeVar("C")
S = TypeVar("S")


def losses(lp: Tensor[T, N, C], tg: Tensor[N, S], il: Tensor[N], tl: Tensor[N]) -> None:
    reveal_type(F.ctc_loss(lp, tg, il, tl))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.ctc_loss(lp, tg, il, tl, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.ctc_loss(lp, tg.flatten(), il, tl, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(F.ctc_loss(lp[:, 0], tg[0], il[0], tl[0], reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(nn.CTCLoss(reduction="none")(lp, tg, il, tl))  # N: Revealed type is "torch._tensor.Tensor[N]"


def bad(lp: Tensor[T, N, C], tg: Tensor[N, S], il: Tensor[N], tl: Tensor[N]) -> None:
    F.ctc_loss(lp.transpose(0, 1), tg, il, tl)  # E: ctc_loss: padded targets (N, S) must have one row per item, T
    F.ctc_loss(lp, tg[None], il, tl)  # E: ctc_loss: targets must be (N, S) padded or 1-d concatenated, not (1, N, S)
    F.ctc_loss(lp[None], tg, il, tl)  # E: ctc_loss: log_probs must be (T, N, C), or (T, C) unbatched
    F.ctc_loss(lp, tg, torch.cat([il, il]), tl)  # E: ctc_loss: input_lengths (2*N,) must hold one length per item, N
    nn.CTCLoss()(lp, tg, il, tl[:1])  # E: ctc_loss: target_lengths (1,) must hold one length per item, N
