"""Arithmetic on `Dim`s: `Dim[D] * 4` is `Dim["4*D"]`, `d // n_head` is `Dim["D//H"]`.

The operands are ints whose values are sizes: `Dim[...]`, `Literal[...]`, or int
literals in the expression (`4` in `4 * d`).  When either operand is a `Dim` (or
a literal type, which is `Dim[768]`), the result is the `Dim` of the normalised
expression.  Two plain literals give an int whose last known value is the result
(as the literal `3072` would), so `4 * 768` is a size where a size is wanted but
a variable assigned from it is still a plain `int`.  Anything else is mypy's `int`.

A power of a `Dim` by an int literal is the product (`(i // p) ** 2` is `Dim["(I//P)*(I//P)"]`).
A `Dim` to a float power (`head_dim ** -0.5`, the attention scale) is a `float`: a size is
never negative, so the result is real.  (typeshed types `int ** float` as `Any`, for the
complex result of a negative base; an `Any` multiplying a tensor would lose its shape.)

`min` and `max` of ints that are sizes (`min(t, self.block_size)`) give the size that is
provably the least (greatest) of them, as a `Dim`, and a plain `int` when none provably
is; they never fail on `Dim`s of different sizes.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import ARG_POS, NameExpr, Var
from mypy.plugin import FunctionContext, MethodContext
from mypy.types import AnyType, Instance, LiteralType, Type, TypeVarType, get_proper_type

from tyr._symbolic import Expr, const
from tyr.mypy_plugin import _names
from tyr.mypy_plugin._rebinding import Assignments, in_code_with_shapes
from tyr.mypy_plugin._statements import assigned_again
from tyr.mypy_plugin._types import Lookup, Scope
from tyr.shape_rules.core import lower_bound

OPERATORS = frozenset(
    {
        "__add__",
        "__radd__",
        "__sub__",
        "__rsub__",
        "__mul__",
        "__rmul__",
        "__floordiv__",
        "__rfloordiv__",
        "__neg__",
        "__pow__",
    }
)

FLOAT_POWERS = frozenset({"builtins.float.__rpow__", "builtins.float.__pow__"})
"""`d ** 0.5`: int's `__pow__` takes no float, so mypy types the power by float's `__rpow__`; `x ** 0.5`
of a float `x` by float's `__pow__`."""

_MAX_POWER = 8  # `d ** k` is the product of k factors; a larger k is left to mypy


def _is_dim(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, LiteralType) or (isinstance(p, Instance) and p.type.fullname == _names.DIM)


def on_size(ctx: MethodContext) -> bool:
    """Whether an operator is called on what `arithmetic_hook` can read a size from (cheap: most
    arithmetic is on plain ints, and the hook gives mypy's type for it)."""
    p = get_proper_type(ctx.type)
    if isinstance(p, Instance):
        return p.last_known_value is not None or p.type.fullname in (_names.DIM, _names.DIM_EXPR)
    return isinstance(p, (LiteralType, TypeVarType))


def arithmetic_hook(ctx: MethodContext, method: str, lookup: Lookup) -> Type:
    scope = Scope(lookup)
    left = scope.size_of(ctx.type)
    if left is None:
        return ctx.default_return_type
    if method == "__neg__":
        return _result(scope, -left, _is_dim(ctx.type), ctx.default_return_type)
    other = _only_argument(ctx)
    if other is None:
        return ctx.default_return_type
    right = scope.size_of(other)
    if right is None:
        return ctx.default_return_type
    if method.startswith("__r"):
        left, right = right, left
    value = _apply(method.replace("__r", "__", 1), left, right)
    if value is None:
        return ctx.default_return_type
    return _result(scope, value, _is_dim(ctx.type) or _is_dim(other), ctx.default_return_type)


def _only_argument(ctx: MethodContext) -> Type | None:
    """The one argument of a binary operator (`__pow__` has a `mod` parameter too, not given)."""
    if not ctx.arg_types or len(ctx.arg_types[0]) != 1 or any(ctx.arg_types[1:]):
        return None
    return ctx.arg_types[0][0]


def _apply(method: str, a: Expr, b: Expr) -> Expr | None:
    if method == "__pow__":
        k = b.const_value
        if k is None or not 0 <= k <= _MAX_POWER:
            return None
        product = const(1)
        for _ in range(k):
            product = product * a
        return product
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


def float_power_hook(ctx: MethodContext, method: str, lookup: Lookup, assignments: Assignments) -> Type:
    """`d ** -0.5`: a `float` where typeshed says `Any` (a negative base gives a complex), for a base that is
    a size (`Dim`) or a positive literal, and in code with shapes (`in_code_with_shapes`) for any `int` or
    `float` base: there `self.scale = head_dim ** -0.5` is a head's scale, and `Any` would leave every tensor
    multiplied by it unchecked (`attn * self.scale` is `Any`).  Not where it is assigned to a name or
    attribute that is assigned again (`self.scale = nn.Parameter(torch.tensor(self.scale))`): a `float`
    there would be an error for the later value that `Any` never gave."""
    base = get_proper_type(ctx.type if method == "__pow__" else _only_argument(ctx))
    if not isinstance(base, Instance) or not isinstance(get_proper_type(ctx.default_return_type), AnyType):
        return ctx.default_return_type
    known = base.last_known_value
    sized = base.type.fullname == _names.DIM or (
        base.type.fullname in (_names.INT, _names.FLOAT)
        and (isinstance(known, LiteralType) and isinstance(known.value, (int, float)) and known.value > 0
             or in_code_with_shapes(ctx.api) and not _target_assigned_again(ctx, assignments))
    )
    return Scope(lookup).instance(_names.FLOAT) if sized else ctx.default_return_type


def _target_assigned_again(ctx: MethodContext, assignments: Assignments) -> bool:
    """Whether the power is the value of an assignment to a local or a `self` attribute assigned elsewhere too."""
    api = ctx.api
    if not isinstance(api, TypeChecker):
        return False
    body = assignments.body(api)
    target = body.targets.get(id(ctx.context))
    if isinstance(target, NameExpr):
        var = target.node
        return isinstance(var, Var) and body.assigned.get(id(var), 0) > 1
    attribute = body.attribute_values.get(id(ctx.context))
    info = api.scope.enclosing_class()
    return attribute is not None and info is not None and assigned_again(info, attribute.name)


def _result(scope: Scope, value: Expr, dim: bool, default: Type) -> Type:
    p = get_proper_type(default)
    if not (isinstance(p, Instance) and p.type.fullname == _names.INT):
        return default
    if dim:
        return scope.dim_value_type(value)
    constant = value.const_value
    return scope.int_value(constant) if constant is not None else default


# -- min and max ------------------------------------------------------------------------------------

MIN_MAX = frozenset({"builtins.min", "builtins.max"})


def _is_int(t: Type) -> bool:
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return isinstance(p.value, int) and not isinstance(p.value, bool) and p.fallback.type.fullname == _names.INT
    return isinstance(p, Instance) and p.type.fullname in (_names.INT, _names.DIM)


def extreme(values: list[Expr], largest: bool) -> Expr | None:
    """The one of `values` that is provably the least (`largest`: the greatest) of them all, else None."""
    for candidate in values:
        if all(_at_most(candidate, other) if not largest else _at_most(other, candidate) for other in values):
            return candidate
    return None


def _at_most(a: Expr, b: Expr) -> bool:
    low = lower_bound(b - a)
    return low is not None and low >= 0


def min_max_hook(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    """`min(a, b, ...)` / `max(a, b, ...)` of ints that are sizes: the extreme size, or `int`."""
    arg_types = [t for types in ctx.arg_types for t in types]
    kinds = [k for ks in ctx.arg_kinds for k in ks]
    if len(arg_types) < 2 or any(k != ARG_POS for k in kinds) or not all(map(_is_int, arg_types)):
        return ctx.default_return_type
    scope = Scope(lookup)
    int_type = scope.instance(_names.INT)
    sizes = [scope.size_of(t) for t in arg_types]
    known = [s for s in sizes if s is not None]
    found = extreme(known, fullname == "builtins.max") if len(known) == len(sizes) else None
    if found is None:
        return int_type
    if any(_is_dim(t) for t in arg_types):
        return scope.dim_value_type(found)
    constant = found.const_value
    return scope.int_value(constant) if constant is not None else int_type
