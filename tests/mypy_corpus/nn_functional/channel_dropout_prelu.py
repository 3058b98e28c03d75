"""`F.dropout1d` / `dropout2d` / `dropout3d` keep the shape (dropout1d takes 2 or 3 dims only; feature dropout
needs a channel dim where it runs), and `F.prelu` takes one slope or one per channel (dim 1)."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

N = TypeVar("N")
C = TypeVar("C")
L = TypeVar("L")


def channel_dropout(x: Tensor[N, C, L], img: Tensor[N, C, 8, 8], v: Tensor[4], s: Tensor[()], p: float) -> None:
    reveal_type(F.dropout1d(x, 0.2))  # N: Revealed type is "torch._tensor.Tensor[N, C, L]"
    reveal_type(F.dropout1d(x[0], p=p, training=False))  # N: Revealed type is "torch._tensor.Tensor[C, L]"
    reveal_type(F.dropout2d(img, 0.1, inplace=True))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[8], Literal[8]]"
    reveal_type(F.dropout3d(img))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[8], Literal[8]]"
    reveal_type(F.dropout2d(v, 0.5, training=False))  # N: Revealed type is "torch._tensor.Tensor[Literal[4]]"
    reveal_type(F.dropout3d(v, p))  # N: Revealed type is "torch._tensor.Tensor[Literal[4]]"
    F.dropout1d(img)  # E: dropout1d: the input must be (C, L) or (N, C, L), not (N, C, 8, 8)  [tyr-shape]
    F.dropout2d(x, 1.5)  # E: dropout2d: the probability p must be between 0 and 1, got 1.5  [tyr-shape]
    F.dropout2d(v)  # E: dropout2d: the input must have at least 2 dims (channels), not (4,)  [tyr-shape]
    F.dropout3d(s, 0.3)  # E: dropout3d: the input must have at least 1 dim (channels), not ()  [tyr-shape]


def prelu(x: Tensor[N, C, L], a: Tensor[C], one: Tensor[1], three: Tensor[3], v: Tensor[L]) -> None:
    reveal_type(F.prelu(x, a))  # N: Revealed type is "torch._tensor.Tensor[N, C, L]"
    reveal_type(torch.prelu(x, one))  # N: Revealed type is "torch._tensor.Tensor[N, C, L]"
    reveal_type(v.prelu(one))  # N: Revealed type is "torch._tensor.Tensor[L]"
    F.prelu(x, three)  # E: prelu: the weight (3,) must hold 1 slope or one per channel, C (dim 1 of the input (N, C, L))  [tyr-shape]
    F.prelu(v, three)  # E: prelu: the weight (3,) must hold 1 slope or one per channel, 1 (a 1-d input is one channel (L,))  [tyr-shape]
    F.prelu(x, x[0])  # E: prelu: the weight must be 0-d or 1-d, not (C, L)  [tyr-shape]
