"""A result written with the sizes of the type it is expected to have, where they are the same sizes.

mypy compares sizes as written.  Two spellings of one size (SHAPES.md §6) can meet where a
value has a declared type: `y: Tensor[B, H, "2*(D//H)"] = x.view(b, h, -1)` of a
`Tensor[B, "2*D"]` infers `(2*D)//H`, which is `2*(D//H)` once `H` divides `D`, as the
annotation states.  Each dim of a call's result that equals (`sizes_equal`, with the facts of
both) the dim mypy expects there (the declared type of what it is assigned to or returned
as) takes that dim's spelling.  A dim that differs keeps its own, and mypy reports it.
"""

from __future__ import annotations

from typing import TypeVar

from mypy.checker import TypeChecker
from mypy.types import Instance, Type, UnionType, UnpackType, get_proper_type

from tyr._symbolic import sizes_equal
from tyr.mypy_plugin._remainders import divides
from tyr.mypy_plugin._types import Lookup, Scope, is_tensor_instance


_Result = TypeVar("_Result")


def as_expected(api: object, result: _Result, lookup: Lookup) -> _Result:
    """`result`, each dim that equals the expected type's dim written as that dim."""
    if not isinstance(result, Type):
        return result
    written = _written_as_expected(api, result, lookup)
    return written if isinstance(written, type(result)) else result


def _written_as_expected(api: object, result: Type, lookup: Lookup) -> Type:
    if not isinstance(api, TypeChecker):
        return result
    contexts = api.expr_checker.type_context
    expected = get_proper_type(contexts[-1]) if contexts and contexts[-1] is not None else None
    if expected is None:
        return result
    value = get_proper_type(result)
    if not (isinstance(value, Instance) and is_tensor_instance(value) and _fixed_rank(value)):
        return result
    members = expected.items if isinstance(expected, UnionType) else [expected]
    for member in members:
        m = get_proper_type(member)
        if isinstance(m, Instance) and m.type is value.type and len(m.args) == len(value.args) and _fixed_rank(m):
            if m.args != value.args and (divides(m) or divides(value)):
                return _respelled(value, m, Scope(lookup))
    return result


def _fixed_rank(tensor: Instance) -> bool:
    return not any(isinstance(arg, UnpackType) for arg in tensor.args)


def _respelled(value: Instance, expected: Instance, scope: Scope) -> Instance:
    args = [want if got != want and _same_size(got, want, scope) else got for got, want in zip(value.args, expected.args)]
    return value.copy_modified(args=args) if tuple(args) != tuple(value.args) else value


def _same_size(got: Type, want: Type, scope: Scope) -> bool:
    a, b = scope.size_of(got), scope.size_of(want)
    return a is not None and b is not None and sizes_equal(a, b)
