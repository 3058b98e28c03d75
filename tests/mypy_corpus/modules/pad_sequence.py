"""`pad_sequence`: sequences `(L_i, *)` padded to the longest and stacked, `(L, N, *)` or `(N, L, *)` with
`batch_first`.  `*` is the first sequence's trailing dims, into which each sequence must broadcast; `L` is
known where the lengths are constants or all one size, `N` where the list is written out."""

from typing import TypeVar, reveal_type

import torch
from torch.nn.utils.rnn import pad_sequence

from tyr import Tensor

T = TypeVar("T")
D = TypeVar("D")


def batch(a: Tensor[T, D], b: Tensor[T, D], c: Tensor[5, D], many: list[Tensor[T, D]], wide: Tensor[3, 8]) -> None:
    reveal_type(pad_sequence([a, b]))  # N: Revealed type is "torch._tensor.Tensor[T, Literal[2], D]"
    reveal_type(pad_sequence([a, b, c], batch_first=True))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Any, D]"
    reveal_type(pad_sequence(many, batch_first=True, padding_value=-1.0))  # N: Revealed type is "torch._tensor.Tensor[Any, T, D]"
    reveal_type(pad_sequence([torch.ones(3, 8), torch.ones(7, 1)], padding_side="left"))  # N: Revealed type is "torch._tensor.Tensor[Literal[7], Literal[2], Literal[8]]"
    pad_sequence([wide, torch.ones(2, 4)])  # E: pad_sequence (sequence 1 into its slot, the first's trailing dims): dimension 1 of the operand (4) does not broadcast with dimension 1 of the target (8); shapes (2, 4) and (2, 8)  [tyr-shape]
    pad_sequence([torch.ones(3, 1), wide])  # E: pad_sequence (sequence 1 into its slot, the first's trailing dims): dimension 1 of the operand (8) cannot broadcast to the target's size 1; shapes (3, 8) and (3, 1)  [tyr-shape]
    pad_sequence([a, torch.tensor(0.0)])  # E: pad_sequence: sequence 1 is 0-d; each needs a length dim first, (L, *)  [tyr-shape]
    pad_sequence([a, b], padding_side="middle")  # E: pad_sequence: padding_side must be 'left' or 'right', not 'middle'  [tyr-shape]
