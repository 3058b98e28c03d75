"""`reshape` takes sizes as arguments or as one tuple; `x.shape` pieces and `Dim`s keep their symbols."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def forms(x: Tensor[B, T, C]) -> None:
    reveal_type(x.reshape(-1, x.shape[-1]))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T], C]"
    reveal_type(x.reshape((x.shape[0], -1)))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['C*T'], C, T]]"
    reveal_type(x.view(-1))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*C*T'], B, C, T]]"
