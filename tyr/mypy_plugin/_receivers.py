"""The union a hook's receiver belongs to.

mypy types a method call, an operator or an index on a union (`x` after `if c: x = x.reshape(-1)`,
a buffer typed `Tensor | Module`) by calling the method of each member with that member as the
receiver, and the value is the union of their results.  A hook that runs for one member sees only
that member in `ctx.type`; this finds the whole union.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, IndexExpr, MemberExpr, OpExpr
from mypy.plugin import AttributeContext, FunctionContext, MethodContext
from mypy.types import UnionType, get_proper_type


def union_receiver(ctx: FunctionContext | MethodContext | AttributeContext) -> UnionType | None:
    """The union of which the receiver of `ctx`'s method is one member, or None where the receiver
    is no union (or the hook is no method's)."""
    if not isinstance(ctx, MethodContext) or not isinstance(ctx.api, TypeChecker):
        return None
    call = ctx.context
    receivers: list[Expression]
    if isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr):
        receivers = [call.callee.expr]
    elif isinstance(call, OpExpr):
        receivers = [call.left, call.right]  # (the right one for a reflected operator: `2 / x`)
    elif isinstance(call, IndexExpr):
        receivers = [call.base]
    else:
        return None
    member = get_proper_type(ctx.type)
    for receiver in receivers:
        whole = get_proper_type(ctx.api.lookup_type_or_none(receiver))
        if isinstance(whole, UnionType) and any(get_proper_type(item) == member for item in whole.items):
            return whole
    return None
