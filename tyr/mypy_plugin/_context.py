"""A tensor as the context of a call whose result is a bare type variable (`y = max(a, b)`).

mypy infers a function's type variable from the type its result is expected to have
only when that is a generic instance (or a literal): `decay = max(step - k, 1)` with
`decay` declared a tensor binds `T` to the tensor, and then `1` is an argument error.
torch's own `Tensor` is not generic, so without tyr mypy infers `T` from the arguments
alone; tyr's `Tensor[*Shape]` is, and would add that error to code that has no shape
annotations.  This hook takes such a call out of a tensor context, as torch's types do.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.checker import TypeChecker
from mypy.plugin import FunctionSigContext, MethodSigContext
from mypy.types import AnyType, FunctionLike, Instance, ProperType, Type, TypeVarType, UnionType, get_proper_type

from tyr.mypy_plugin._types import is_tensor_instance


def returns_type_variable(signature: Type | None) -> bool:
    """Whether some item of a declared signature returns a type variable of its own, or a union of them."""
    p = get_proper_type(signature) if signature is not None else None
    if not isinstance(p, FunctionLike):
        return False
    for item in p.items:
        result = get_proper_type(item.ret_type)
        members = result.items if isinstance(result, UnionType) else [result]
        own = {v.id for v in item.variables}
        if all(isinstance(t := get_proper_type(m), TypeVarType) and t.id in own for m in members):
            return True
    return False


def without_tensor_context(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """The signature unchanged; the call is checked without the tensor its result is expected to be."""
    return _without_context(ctx, _is_shaped_tensor)


def _is_shaped_tensor(expected: ProperType) -> bool:
    return isinstance(expected, Instance) and bool(expected.args) and is_tensor_instance(expected)


def _without_context(ctx: FunctionSigContext | MethodSigContext, drop: Callable[[ProperType], bool]) -> FunctionLike:
    """The signature unchanged; the call is checked without the type its result is expected to be, where `drop` says."""
    if isinstance(ctx.api, TypeChecker):
        contexts = ctx.api.expr_checker.type_context
        expected = get_proper_type(contexts[-1]) if contexts and contexts[-1] is not None else None
        # Only for this call: mypy pops this context once the call is checked.
        if expected is not None and drop(expected):
            contexts[-1] = None
    return ctx.default_signature


TENSOR_CLASSES = frozenset({"torch._tensor.Tensor", "torch.nn.parameter.Parameter", "torch.nn.parameter.Buffer"})
"""Tensor classes called as constructors (`nn.Parameter(t)`)."""

CLASS_TAKERS = frozenset({"functools.partial"})
"""Calls that may take a class generic in a `TypeVarTuple` as an argument (`partial(nn.LayerNorm, eps=1e-6)`)."""


def without_union_any_context(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """A tensor class's constructor, checked without an expected type that is a union with `Any`
    (`layer.norm.weight = nn.Parameter(t)`, where `Module.__getattr__` gives `Tensor | Module` and a
    failed attribute `Any`).  mypy 2.4 crashes inferring a class generic in a `TypeVarTuple` (tyr's
    `Tensor[*Shape]`) against such a context; torch's own `Tensor`, not generic, never meets that."""
    return _without_context(ctx, _is_union_with_any)


def _is_union_with_any(expected: ProperType) -> bool:
    return isinstance(expected, UnionType) and any(isinstance(get_proper_type(t), AnyType) for t in expected.items)


def without_any_context(ctx: FunctionSigContext | MethodSigContext) -> FunctionLike:
    """A call that takes a class (`partial(nn.LayerNorm, eps=1e-6)` where the other branch of a
    conditional is `Any`), checked without an expected type that is or holds `Any`: mypy 2.4 crashes
    there too, unifying the class's constructor, generic in a `TypeVarTuple` with tyr's stubs."""
    return _without_context(ctx, _holds_any)


def _holds_any(expected: ProperType) -> bool:
    return isinstance(expected, AnyType) or _is_union_with_any(expected)
