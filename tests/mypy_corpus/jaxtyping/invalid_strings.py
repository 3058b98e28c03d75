"""Shape strings jaxtyping itself refuses are reported (the program would fail when imported)."""

from jaxtyping import Float
from torch import Tensor


def commas(x: Float[Tensor, "b, c"]) -> None:  # E: Invalid jaxtyping shape "b, c": Axes should be separated with spaces, not commas  # raises
    pass


def two_variadics(x: Float[Tensor, "*a ... c"]) -> None:  # E: Invalid jaxtyping shape "*a ... c": Cannot use variadic specifiers  # raises
    pass
