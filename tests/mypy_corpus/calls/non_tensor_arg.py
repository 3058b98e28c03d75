"""mypy still checks everything but the shapes: a str where a tensor is wanted."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")


def f(x: Tensor[B, 3]) -> None: ...


f("not a tensor")  # E: Argument 1 to "f" has incompatible type "str"; expected "Tensor[*tuple[Any, ...]]"  [arg-type]
