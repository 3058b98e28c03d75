"""Keep mypy from asking for an annotation it has just inferred, when tyr makes a loop run again.

mypy checks a loop body again while the types the binder narrowed at its head change.
tyr narrows tensor names to their shapes, which change from one iteration to the next far
more often than torch's bare `Tensor` does, so loops are checked again where plain mypy would
stop after one pass.  A second pass meets a mypy quirk (plain mypy shows it too, whenever a
loop runs twice): `y = x if c else None` gave `y` the partial type `None` the first time and
a full type (`T | None`) the second, but `y` stays in the function's list of partial types,
and at the function's end mypy reports "Need type annotation" for a type it inferred.
A variable of that list whose type is no longer partial has been inferred: it is dropped.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.types import PartialType


def forget_inferred(api: TypeChecker) -> None:
    """Drop the variables of the current function's partial-type scope that have a full type now."""
    if not api.partial_types:
        return
    pending = api.partial_types[-1].map
    for var in [v for v in pending if v.type is not None and not isinstance(v.type, PartialType)]:
        del pending[var]
