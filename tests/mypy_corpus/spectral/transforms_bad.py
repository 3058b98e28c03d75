"""`torch.fft` calls that torch rejects: a dim out of range, lengths that do not fit the dims."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def wrong(x: Tensor[B, T], v: Tensor[T]) -> None:
    torch.fft.rfft(x, dim=2)  # E: rfft: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
    torch.fft.fft2(v)  # E: fft2: dimension -2 is out of range for a 1-d tensor  [tyr-shape]
    torch.fft.fftn(x, s=(4, 4), dim=0)  # E: fftn: s gives 2 lengths for the 1 dims (0,); it must give one per dim  [tyr-shape]
    torch.fft.irfft(x, n=0)  # E: irfft: 0 data points along dim -1 of (B, T)  [tyr-shape]
    torch.fft.fftshift(x, dim=3)  # E: fftshift: dimension 3 is out of range for a 2-d tensor  [tyr-shape]
