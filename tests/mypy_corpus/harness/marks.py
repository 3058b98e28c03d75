"""Harness self-check: marks are read from comments only, several to a line."""

from typing import reveal_type

text = "# E: not a mark"

reveal_type(text)  # N: Revealed type is "str"
a: int = "s"; b: str = 1  # E: expression has type "str", variable has type "int" # E: expression has type "int", variable has type "str"
