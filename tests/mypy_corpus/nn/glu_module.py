"""`nn.GLU(dim)` halves a dim as `F.glu` does: an even size, or a symbolic one (SHAPES.md §6)."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def run(x: Tensor[B, 12, 8], y: Tensor[B, "2*D"], z: Tensor[B, "D+1"], odd: Tensor[B, "2*D+1"], d: int) -> None:
    reveal_type(nn.GLU())  # N: Revealed type is "torch.nn.modules.activation.GLU[Literal[-1]]"
    reveal_type(nn.GLU()(y))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(nn.GLU(1)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], Literal[8]]"
    reveal_type(nn.GLU(dim=-2)(torch.zeros(0, 2)))  # N: Revealed type is "torch._tensor.Tensor[Literal[0], Literal[2]]"
    reveal_type(nn.GLU(0)(x))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B//2'], B], Literal[12], Literal[8]]"
    reveal_type(nn.GLU()(z))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D//2 + 1'], D]]"
    reveal_type(F.glu(z, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D//2 + 1'], D]]"
    reveal_type(nn.GLU(d)(x))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(nn.Sequential(nn.Linear(8, 16), nn.GLU())(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[12], Literal[8]]"
    nn.GLU()(torch.zeros(4, 5))  # E: glu: dimension -1 must have an even size to halve, not 5 (in GLU[-1])  [tyr-shape]
    nn.GLU(0)(torch.zeros(3, 6))  # E: glu: dimension 0 must have an even size to halve, not 3 (in GLU[0])  [tyr-shape]
    nn.GLU(2)(torch.zeros(4, 6))  # E: glu: dimension 2 is out of range for a 2-d tensor (expected -2 to 1) (in GLU[2])  [tyr-shape]
    nn.GLU()(odd)  # E: glu: dimension -1 must have an even size to halve, not 2*D + 1 (in GLU[-1])  [tyr-shape]
    F.glu(odd)  # E: glu: dimension -1 must have an even size to halve, not 2*D + 1  [tyr-shape]
