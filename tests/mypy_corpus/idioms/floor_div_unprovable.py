"""A view through `C // H` heads and back to `C` cannot be proven equal, and is not an error."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")


def roundtrip(x: Tensor[B, C], h: Dim[H]) -> Tensor[B, C]:
    b, c = x.size()
    y = x.view(b, h, c // h)
    return y.view(b, c)
