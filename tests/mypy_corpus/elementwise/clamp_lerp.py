"""`clamp` with tensor bounds, `lerp`, `addcmul` broadcast their tensors together (scalars leave the shape)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def mix(x: Tensor[B, T, D], y: Tensor[B, T, D], lo: Tensor[T, 1], w: Tensor[D]) -> None:
    reveal_type(x.clamp(min=lo))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(lo.clamp(max=x))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(torch.clamp(x, 0.0, 1.0))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(torch.lerp(x, y, w))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(lo.addcmul(x, y, value=0.5))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    lo.clamp_(min=x)  # E: clamp_: shape (B, T, D) has more dimensions than the target (T, 1)  [tyr-shape]
    x.lerp(y, torch.zeros(5))  # E: lerp: dimension  [tyr-shape]
