"""The padding modules pad as `F.pad` does in their mode: an int pads both sides of each of the
last 1, 2 or 3 dims; a tuple is `(left, right, top, bottom, ...)`, and a negative amount crops
(RWKV's token shift, `nn.ZeroPad2d((0, 0, 1, -1))`, keeps the sequence's length)."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")


class Pads(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.reflect = nn.ReflectionPad1d(2)
        self.constant = nn.ConstantPad3d(1, 0.5)
        self.circular = nn.CircularPad2d((1, 1, 2, 2))

    def forward(self, seq: Tensor[B, N, D], volume: Tensor[B, 2, 4, 4, 4]) -> None:
        reveal_type(self.shift(seq))  # N: Revealed type is "torch._tensor.Tensor[B, N, D]"
        reveal_type(self.reflect(seq))  # N: Revealed type is "torch._tensor.Tensor[B, N, tyr._static.DimExpr[Literal['D + 4'], D]]"
        reveal_type(self.constant(volume))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], Literal[6], Literal[6], Literal[6]]"
        reveal_type(self.circular(seq))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['N + 4'], N], tyr._static.DimExpr[Literal['D + 2'], D]]"
        self.reflect(volume)  # E: pad: mode 'reflect' pads 1 to 3 dims of a tensor with 1 or 2 more dims; got 2 pads for (B, 2, 4, 4, 4) (in ReflectionPad1d[2])  [tyr-shape]
