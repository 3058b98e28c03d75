"""A list or tuple written out and multiplied (`torch.cat([x] * 2)`, classifier-free guidance's idiom): a
literal count gives that many copies; a count of unknown value leaves only the joined dim unknown."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def guidance(x: Tensor[B, T, D], y: Tensor[B, T, D], n: int) -> None:
    reveal_type(torch.cat([x] * 2))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['2*B'], B], T, D]"
    reveal_type(torch.cat((x,) * 3, dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, T, tyr._static.DimExpr[Literal['3*D'], D]]"
    reveal_type(torch.cat([x, y] * 2, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['4*T'], T], D]"
    reveal_type(torch.cat(2 * [x] + [y], dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['3*T'], T], D]"
    reveal_type(torch.stack([x] * 3, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], T, D]"
    reveal_type(torch.cat([x] * n, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Any, D]"
    reveal_type(torch.cat((x, y) * n, dim=0))  # N: Revealed type is "torch._tensor.Tensor[Any, T, D]"
    reveal_type(torch.stack([x] * n, dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, T, D, Any]"
    torch.cat([x] * 3, dim=3)  # E: cat: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]
    torch.cat([x] * n, dim=3)  # E: cat: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]
    torch.stack([x] * n, dim=4)  # E: stack: dimension 4 is out of range  [tyr-shape]
    torch.cat([x, x[0]] * n)  # E: cat  [tyr-shape]
    torch.stack([x, x[0]] * 2)  # E: stack  [tyr-shape]
    torch.cat([x] * 0)  # E: cat: expected a non-empty list of tensors  [tyr-shape]
