"""A module that writes no shapes keeps typeshed's `Any` for a float power of an `int` or `float` (adopting
tyr changes no type there); a positive literal base is a `float` everywhere."""

from typing import reveal_type


def powers(head_dim: int, temperature: float) -> None:
    reveal_type(head_dim ** -0.5)  # N: Revealed type is "Any"
    reveal_type(temperature ** 0.5)  # N: Revealed type is "Any"
    reveal_type(64 ** -0.5)  # N: Revealed type is "float"
