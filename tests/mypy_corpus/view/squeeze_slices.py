"""A size that is at least 2 at every size is never squeezed; a slice that stops at or before its start
is empty at every size."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def squeezed(e: Tensor["T+1", D], h: Tensor[B, "2*T", 1]) -> None:
    reveal_type(torch.squeeze(e, dim=0))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['T + 1'], T], D]"
    reveal_type(h.squeeze(1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*T'], T], Literal[1]]"
    reveal_type(h.squeeze())  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(e.squeeze())  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"  # D may be 1
    c = h.clone()
    c.squeeze_(1)
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['2*T'], T], Literal[1]]"


def sliced(e: Tensor["T+1", D]) -> None:
    reveal_type(e[1, 2:1:2])  # N: Revealed type is "torch._tensor.Tensor[Literal[0]]"
    reveal_type(e[:, 3:1])  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['T + 1'], T], Literal[0]]"
    reveal_type(e[-1:-3])  # N: Revealed type is "torch._tensor.Tensor[Literal[0], D]"
    reveal_type(e[2:-1])  # N: Revealed type is "torch._tensor.Tensor[Any, D]"  # counted from both ends: depends on T
    e[:, 3:1] @ e  # E: @: dimension 1 of the left operand (0) does not match dimension 0 of the right operand (T + 1)  [tyr-shape]
