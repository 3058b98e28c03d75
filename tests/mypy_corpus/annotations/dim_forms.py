"""`Dim[768]` is `Literal[768]`; `Dim[D]` and `Dim["4*D"]` are ints whose values are sizes."""

from typing import TypeVar, reveal_type

from tyr import Dim

D = TypeVar("D")


def forms(a: Dim[768], b: Dim[D], c: Dim["4*D"], d: Dim) -> None:
    reveal_type(a)  # N: Revealed type is "Literal[768]"
    reveal_type(b)  # N: Revealed type is "tyr._static.Dim[D]"
    reveal_type(c)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['4*D'], D]]"
    reveal_type(d)  # N: Revealed type is "int"
    n: int = b
