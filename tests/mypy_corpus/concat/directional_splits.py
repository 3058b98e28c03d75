"""`torch.vsplit`, `hsplit` and `dsplit` split dim 0, 1 (0 of a 1-d tensor) or 2, as `tensor_split`
does at indices; a number of sections must divide the dim."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def splits(m: Tensor[6, 8], v: Tensor[6], x: Tensor[B, 4, 6]) -> None:
    reveal_type(torch.vsplit(m, [1]))  # N: Revealed type is "tuple[torch._tensor.Tensor[Literal[1], Literal[8]], torch._tensor.Tensor[Literal[5], Literal[8]]]"
    reveal_type(m.hsplit(2))  # N: Revealed type is "tuple[torch._tensor.Tensor[Literal[6], Literal[4]], torch._tensor.Tensor[Literal[6], Literal[4]]]"
    reveal_type(torch.hsplit(v, 3)[0])  # N: Revealed type is "torch._tensor.Tensor[Literal[2]]"
    reveal_type(torch.dsplit(x, [2])[1])  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4], Literal[4]]"
    torch.vsplit(m, 4)  # E: vsplit: dimension 0 (6) of (6, 8) does not divide into 4 sections  [tyr-shape]
    torch.dsplit(m, 2)  # E: dsplit: needs a tensor of at least 3 dims, got (6, 8)  [tyr-shape]
