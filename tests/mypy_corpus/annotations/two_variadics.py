"""At most one TypeVarTuple per shape (the number of dims each takes would be ambiguous)."""

from typing import TypeVarTuple

from tyr import Tensor

A = TypeVarTuple("A")
C = TypeVarTuple("C")


def f(x: Tensor[*A, *C]) -> None: ...  # E: At most one *TypeVarTuple may appear in "Tensor"  [tyr-annotation]
