"""`x.shape[i]` and `x.size(i)` are the dims' sizes as values: `Dim[B]`, or `Literal[768]` for a fixed size."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")


def sizes(x: Tensor[B, 768]) -> None:
    reveal_type(x.shape[0])  # N: Revealed type is "tyr._static.Dim[B]"
    reveal_type(x.shape[-1])  # N: Revealed type is "Literal[768]"
    reveal_type(x.size(0))  # N: Revealed type is "tyr._static.Dim[B]"
    reveal_type(x.size(-1))  # N: Revealed type is "Literal[768]"
    reveal_type(x.shape)  # N: Revealed type is "tuple[tyr._static.Dim[B], Literal[768], fallback=torch._C.Size]"
