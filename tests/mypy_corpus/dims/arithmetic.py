"""Arithmetic on `Dim`s gives `Dim`s in normal form: `Dim[D] * 4` is `Dim["4*D"]`, `d // h` is `Dim["D//H"]`."""

from typing import TypeVar, reveal_type

from tyr import Dim

D = TypeVar("D")
H = TypeVar("H")


def arithmetic(d: Dim[D], h: Dim[H]) -> None:
    reveal_type(d * 4)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['4*D'], D]]"
    reveal_type(4 * d)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['4*D'], D]]"
    reveal_type(d // h)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['D//H'], D, H]]"
    reveal_type(d + h - h)  # N: Revealed type is "tyr._static.Dim[D]"
    reveal_type((d * 2 - 1) // 2 + 1)  # N: Revealed type is "tyr._static.Dim[D]"
    reveal_type(-d)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['-D'], D]]"
    reveal_type(d * 0)  # N: Revealed type is "Literal[0]"
