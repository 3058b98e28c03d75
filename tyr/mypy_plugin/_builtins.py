"""Python's builtins over tensors: `sum(...)` of tensors.

typeshed types `sum(xs)` as `T | Literal[0]`, for the empty iterable.  Of tensors that would make
every `sum(emb(c) for c in codes)` a union that a module's typed call rejects, where torch's own
types (a module call is `Any`) say nothing; code summing tensors never sums none, so the result
is the tensors' type.  (Summing tensors of one type broadcasts that shape with itself: the same.)
"""

from __future__ import annotations

from mypy.plugin import FunctionContext
from mypy.types import Instance, LiteralType, ProperType, Type, UnionType, get_proper_type

from tyr.mypy_plugin._types import is_tensor_instance


def sum_hook(ctx: FunctionContext) -> Type:
    """`sum(tensors)` without `start`: the tensors' type, not `| Literal[0]`."""
    result = get_proper_type(ctx.default_return_type)
    if not isinstance(result, UnionType):
        return ctx.default_return_type
    members = [get_proper_type(m) for m in result.items]
    tensors = [m for m in members if not _is_zero(m)]
    if len(tensors) == len(members) or not tensors or not all(is_tensor_instance(m) for m in tensors):
        return ctx.default_return_type
    return UnionType.make_union(tensors)


def _is_zero(t: ProperType) -> bool:
    """`Literal[0]`, typeshed's result for an empty iterable."""
    if isinstance(t, Instance) and t.last_known_value is not None:
        t = t.last_known_value
    return isinstance(t, LiteralType) and t.value == 0 and t.fallback.type.fullname == "builtins.int"
