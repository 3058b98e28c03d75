"""`for row in x` gives rows of `x`'s shape without its first dim, whatever that dim's size
(`self.codebooks`, a `Parameter` built from a plain int count)."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

N = TypeVar("N")
K = TypeVar("K")
D = TypeVar("D")


class ResidualQuantizer(nn.Module):
    def __init__(self, quantizers: int, codes: Dim[K], dim: Dim[D]) -> None:
        super().__init__()
        self.codebooks = nn.Parameter(torch.randn(quantizers, codes, dim))

    def forward(self, r: Tensor[N, D]) -> None:
        for codebook in self.codebooks:
            reveal_type(codebook)  # N: Revealed type is "torch._tensor.Tensor[K, D]"
            r @ codebook  # E: @: dimension 1 of the left operand (D) does not match dimension 0 of the right operand (K)  [tyr-shape]
        first, *rest = r
        reveal_type(first)  # N: Revealed type is "torch._tensor.Tensor[D]"
