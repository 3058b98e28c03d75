"""The global switch for runtime checking.

`TYR_CHECKS=0` in the environment (read at import) makes `@checked` return
functions untouched, so production runs pay nothing.  `set_checking(False)`
turns the checks of already-decorated functions off at the cost of one flag
test per call; `set_checking(True)` turns them back on.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

_FALSE_WORDS = {"0", "false", "no", "off"}


class _Switch:
    __slots__ = ("enabled", "decorate")

    def __init__(self) -> None:
        from_env = os.environ.get("TYR_CHECKS", "1").strip().lower() not in _FALSE_WORDS
        self.enabled = from_env  # checks run in decorated functions
        self.decorate = from_env  # @checked wraps at all


SWITCH = _Switch()


def set_checking(enabled: bool) -> None:
    """Turn runtime shape checks on or off for every `@checked` function."""
    SWITCH.enabled = enabled


def checking_enabled() -> bool:
    """Whether `@checked` functions check their arguments now."""
    return SWITCH.enabled


@contextmanager
def checking(enabled: bool) -> Iterator[None]:
    """Within the block, checks are on (or off); the previous setting returns after it."""
    before = SWITCH.enabled
    SWITCH.enabled = enabled
    try:
        yield
    finally:
        SWITCH.enabled = before
