"""A name in a dimension string must be a TypeVar in scope."""

from tyr import Tensor

Width = 768


def f(x: Tensor["Q*2"]) -> None: ...  # E: Name "Q" is not defined
def g(x: Tensor["Width*2"]) -> None: ...  # E: Name "Width" in dimension "Width*2" is not a TypeVar in scope  [tyr-annotation]
