"""Powers of `Dim`s: an int power is the product; a float power (the attention scale) is a `float`.

typeshed types `int ** float` as `Any` (a negative base gives a complex number); a size is
never negative, so tyr says `float`, and a tensor scaled by it keeps its shape.
"""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")
P = TypeVar("P")


def powers(d: Dim[D], p: Dim[P], n: int) -> None:
    reveal_type(d**2)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['D*D'], D]]"
    reveal_type((d // p) ** 2)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['(D//P)*(D//P)'], D, P]]"
    reveal_type(d**-0.5)  # N: Revealed type is "float"
    reveal_type(d**0.5)  # N: Revealed type is "float"
    reveal_type(d**-1)  # N: Revealed type is "float"
    # a plain int may be negative (a complex power): typeshed says Any, but in code with shapes it is a
    # float, so that `attn * scale` keeps its shape (`tests/mypy_corpus/idioms/attention_scale_power.py`)
    reveal_type(n**0.5)  # N: Revealed type is "float"


def scaled(q: Tensor[B, D], d: Dim[D]) -> Tensor[B, D]:
    scale = d**-0.5
    reveal_type(q * scale)  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    return q * scale
