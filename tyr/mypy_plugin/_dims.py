"""Arithmetic on `Dim`s: `Dim[D] * 4` is `Dim["4*D"]`, `d // n_head` is `Dim["D//H"]`.

The operands are ints whose values are sizes: `Dim[...]`, `Literal[...]`, or int
literals in the expression (`4` in `4 * d`).  When either operand is a `Dim` (or
a literal type, which is `Dim[768]`), the result is the `Dim` of the normalised
expression.  Two plain literals give an int whose last known value is the result
(as the literal `3072` would), so `4 * 768` is a size where a size is wanted but
a variable assigned from it is still a plain `int`.  Anything else is mypy's `int`.
"""

from __future__ import annotations

from mypy.plugin import MethodContext
from mypy.types import Instance, LiteralType, Type, get_proper_type

from tyr._symbolic import Expr
from tyr.mypy_plugin import _names
from tyr.mypy_plugin._types import Lookup, Scope

OPERATORS = frozenset(
    {"__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__floordiv__", "__rfloordiv__", "__neg__"}
)


def _is_dim(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, LiteralType) or (isinstance(p, Instance) and p.type.fullname == _names.DIM)


def arithmetic_hook(ctx: MethodContext, method: str, lookup: Lookup) -> Type:
    scope = Scope(lookup)
    left = scope.size_of(ctx.type)
    if left is None:
        return ctx.default_return_type
    if method == "__neg__":
        return _result(scope, -left, _is_dim(ctx.type), ctx.default_return_type)
    if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    other = ctx.arg_types[0][0]
    right = scope.size_of(other)
    if right is None:
        return ctx.default_return_type
    if method.startswith("__r"):
        left, right = right, left
    value = _apply(method.replace("__r", "__", 1), left, right)
    if value is None:
        return ctx.default_return_type
    return _result(scope, value, _is_dim(ctx.type) or _is_dim(other), ctx.default_return_type)


def _apply(method: str, a: Expr, b: Expr) -> Expr | None:
    if method == "__add__":
        return a + b
    if method == "__sub__":
        return a - b
    if method == "__mul__":
        return a * b
    if method == "__floordiv__":
        if b.const_value == 0:
            return None
        return a // b
    return None


def _result(scope: Scope, value: Expr, dim: bool, default: Type) -> Type:
    p = get_proper_type(default)
    if not (isinstance(p, Instance) and p.type.fullname == _names.INT):
        return default
    if dim:
        return scope.dim_value_type(value)
    constant = value.const_value
    return scope.int_value(constant) if constant is not None else default
