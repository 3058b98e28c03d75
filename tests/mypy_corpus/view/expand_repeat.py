"""`expand` grows size-1 dims (-1 keeps a dim); `repeat` multiplies."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")


def grow(x: Tensor[1, T], b: Dim[B]) -> None:
    reveal_type(x.expand(b, -1))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.repeat(4, 2))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], tyr._static.DimExpr[Literal['2*T'], T]]"
    x.expand(b, 3)  # E: expand  [tyr-shape]
