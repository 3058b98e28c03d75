"""Sizes written with what a function's signature says of its sizes (SHAPES.md §6).

A division of a product keeps its whole in the normal form: `x.reshape(-1, w, c)` of a
`Tensor[B, T, C]` has `(B*T)//W` windows, as nothing says which factor `W` divides.  A
signature that writes `T//W` says it: `W` divides `T`, and there `(B*T)//W` is `B*(T//W)`,
the size the annotation is written with.  mypy compares the types as written, so a result
whose sizes divide is written in the normal form under the signature's facts.
"""

from __future__ import annotations

from typing import TypeVar

from mypy.checker import TypeChecker
from mypy.nodes import FuncItem
from mypy.types import CallableType, Type, get_proper_type

from tyr._symbolic import Expr, Fact, division_facts, sizes_equal, under_facts
from tyr.mypy_plugin._remainders import divides, map_sizes
from tyr.mypy_plugin._statements import PerNode
from tyr.mypy_plugin._types import Lookup, Scope

_Result = TypeVar("_Result")


class StatedFacts:
    """For each function, the parts of its signature whose sizes divide (found once)."""

    def __init__(self) -> None:
        self._stating: PerNode[FuncItem, list[Type]] = PerNode(_dividing_parts)

    def clear(self) -> None:
        self._stating.clear()

    def restated(self, api: object, result: _Result, lookup: Lookup) -> _Result:
        """`result` (a type whose sizes divide: `divides`), its sizes in normal form under the facts of
        the current function's signature."""
        if not isinstance(api, TypeChecker):
            return result
        function = api.scope.current_function()
        stating = self._stating(function) if function is not None else []
        if not stating:
            return result
        scope = Scope(lookup)
        facts: list[Fact] = []
        spellings: list[Expr] = []

        def note(size: Expr) -> Expr:
            facts.extend(division_facts(size))
            spellings.append(size)
            return size

        for t in stating:
            map_sizes(t, scope, note)
        if not facts:
            return result
        return map_sizes(result, scope, lambda size: _as_written(under_facts(size, facts), spellings))


def _as_written(size: Expr, spellings: list[Expr]) -> Expr:
    """`size` as the signature spells it, where it is one of the signature's sizes: `2*(E//H)` (`(2*e)//h` once
    the signature's `E//H` says `H` divides `E`) is the return type's `(2*E)//H`, which mypy compares as written
    with a name the result is assigned to first."""
    for spelled in spellings:
        if spelled == size:
            return size
    for spelled in spellings:
        if sizes_equal(spelled, size):
            return spelled
    return size


def _dividing_parts(function: FuncItem) -> list[Type]:
    """The parameter and return types of a function's signature whose sizes divide."""
    signature = get_proper_type(function.type)
    parts = [*signature.arg_types, signature.ret_type] if isinstance(signature, CallableType) else []
    return [t for t in parts if divides(t)]
