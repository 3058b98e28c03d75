from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")


def spectrograms(x: Tensor[B, L], audio: Tensor[480000], window: Tensor[400]) -> None:
    s = torch.stft(audio, 400, 160, window=window, return_complex=True, onesided=True)
    reveal_type(s)  # N: Revealed type is "torch._tensor.Tensor[Literal[201], Literal[3001]]"
    reveal_type(s[..., :-1].abs() ** 2)  # N: Revealed type is "torch._tensor.Tensor[Literal[201], Literal[3000]]"
    reveal_type(audio.stft(400, 160, return_complex=True, center=False, onesided=False))  # N: Revealed type is "torch._tensor.Tensor[Literal[400], Literal[2998]]"
    reveal_type(torch.stft(x, 16, return_complex=True, onesided=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[9], tyr._static.DimExpr[Literal['L//4 + 1'], L]]"
    reveal_type(torch.stft(x, 16, 4, return_complex=False, onesided=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[9], tyr._static.DimExpr[Literal['L//4 + 1'], L], Literal[2]]"
    reveal_type(torch.stft(audio, 400, 160, return_complex=True))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[3001]]"


def bad(x: Tensor[B, L], audio: Tensor[480000], window: Tensor[400]) -> None:
    torch.stft(x[None], 16, return_complex=True)  # E: stft: the signal must be (L,) or (B, L), not (1, B, L)
    torch.stft(audio, 512, 160, window=window, return_complex=True)  # E: stft: the window must be (win_length,) = (512,), not (400,)
    torch.stft(audio, 400, 160, win_length=500, return_complex=True)  # E: stft: win_length=500 must be positive and at most n_fft=400
    torch.stft(audio[:100], 400, 160, return_complex=True)  # E: stft: center=True reflects n_fft//2 = 200 samples
