"""A convolution whose padding and dilation are sizes, as a TCN or WaveNet block builds it
(`Conv1d(c, c, k, padding=(k - 1)*d, dilation=d)`): the output length is computed, so a block that
forgets to chomp the causal padding off is an error where it meets the residual."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
K = TypeVar("K")
L = TypeVar("L")


def causal_block(x: Tensor[B, 4, T], k: Dim[K], d: Dim[L]) -> Tensor[B, 4, T]:
    h = nn.Conv1d(4, 4, k, padding=(k - 1) * d, dilation=d)(x)
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], tyr._static.DimExpr[Literal['K*L - L + T'], K, L, T]]"
    reveal_type(nn.Conv1d(4, 4, k, dilation=d)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], tyr._static.DimExpr[Literal['-K*L + L + T'], K, L, T]]"
    reveal_type(nn.Conv1d(4, 4, 3, padding=d)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], tyr._static.DimExpr[Literal['2*L + T - 2'], L, T]]"
    reveal_type(nn.Conv1d(4, 4, 3, padding=d, dilation=d)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], T]"
    y = h + x  # E: +: dimension 2 of the left operand (K*L - L + T) does not broadcast with dimension 2 of the right operand (T); shapes (B, 4, K*L - L + T) and (B, 4, T)  [tyr-shape]
    return x
