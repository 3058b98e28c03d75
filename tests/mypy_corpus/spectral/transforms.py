"""`torch.fft` transforms: a complex one keeps each size, a real-input one halves the last transformed dim
to `n // 2 + 1`, a real-output one gives `2 * (n - 1)` there; each imported the ways projects import them."""

from typing import TypeVar, reveal_type

import torch
import torch.fft as fft
from torch.fft import irfft, rfft

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
H = TypeVar("H")
W = TypeVar("W")


def one_dim(x: Tensor[B, T]) -> None:
    reveal_type(torch.fft.fft(x))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(rfft(x, dim=-1, norm="ortho"))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T//2 + 1'], T]]"
    reveal_type(irfft(x))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*T - 2'], T]]"
    reveal_type(irfft(rfft(x), n=16))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[16]]"
    reveal_type(fft.ifft(x, axis=0))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.fft.rfft(x).abs())  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T//2 + 1'], T]]"
    reveal_type(torch.fft.fft(x).real)  # N: Revealed type is "torch._tensor.Tensor[B, T]"


def several_dims(x: Tensor[B, H, W]) -> None:
    reveal_type(torch.fft.fft2(x))  # N: Revealed type is "torch._tensor.Tensor[B, H, W]"
    reveal_type(torch.fft.rfft2(x))  # N: Revealed type is "torch._tensor.Tensor[B, H, tyr._static.DimExpr[Literal['W//2 + 1'], W]]"
    reveal_type(torch.fft.irfftn(x, s=(8, 6), dim=(1, 2)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[6]]"
    reveal_type(torch.fft.fftn(x))  # N: Revealed type is "torch._tensor.Tensor[B, H, W]"
    reveal_type(torch.fft.ifftshift(torch.fft.fftshift(x, dim=(-2, -1))))  # N: Revealed type is "torch._tensor.Tensor[B, H, W]"


def frequencies() -> None:
    reveal_type(torch.fft.fftfreq(8, d=0.5))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
    reveal_type(torch.fft.rfftfreq(400, 1 / 16000))  # N: Revealed type is "torch._tensor.Tensor[Literal[201]]"
