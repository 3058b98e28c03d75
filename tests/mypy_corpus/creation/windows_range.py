"""The window functions are 1-d of `window_length` (a `Dim` keeps its symbol); the deprecated `torch.range`
includes its end, `floor((end - start) / step) + 1` elements, known when its bounds are literals."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim

N = TypeVar("N")


def windows(n: Dim[N], k: int) -> None:
    reveal_type(torch.hann_window(n))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(torch.hamming_window(400, periodic=False))  # N: Revealed type is "torch._tensor.Tensor[Literal[400]]"
    reveal_type(torch.blackman_window(8))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
    reveal_type(torch.bartlett_window(n, False))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(torch.kaiser_window(16, True, 12.0))  # N: Revealed type is "torch._tensor.Tensor[Literal[16]]"
    reveal_type(torch.hann_window(k))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    torch.hann_window(-1)  # E: hann_window: window_length must be non-negative, got -1  [tyr-shape]


def ranges(end: float) -> None:
    reveal_type(torch.range(0, 5))  # N: Revealed type is "torch._tensor.Tensor[Literal[6]]"
    reveal_type(torch.range(1, 10, 2))  # N: Revealed type is "torch._tensor.Tensor[Literal[5]]"
    reveal_type(torch.range(0, 1, 0.25))  # N: Revealed type is "torch._tensor.Tensor[Literal[5]]"
    reveal_type(torch.range(5, 0, -1))  # N: Revealed type is "torch._tensor.Tensor[Literal[6]]"
    reveal_type(torch.range(0, end))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    torch.range(5, 0)  # E: range: the step 1 points away from end (0.0) starting at 5.0  [tyr-shape]
