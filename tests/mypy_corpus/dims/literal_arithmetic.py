"""Fixed sizes compute too; plain int literals stay ordinary ints for variables (no new errors)."""

from typing import Literal, reveal_type

from tyr import Dim


def fixed(a: Dim[768], b: Literal[12]) -> None:
    reveal_type(a // b)  # N: Revealed type is "Literal[64]"
    reveal_type(a * 4)  # N: Revealed type is "Literal[3072]"


n = 4 * 768
reveal_type(n)  # N: Revealed type is "int"
n += 1
width = 3 * 4 + 1
width = width - 5
