"""`functools.partial` of a callee with sizes: its call is the direct call it stands for.

`partial(nn.Conv2d, padding=1)(8, 8, 3)` builds what `nn.Conv2d(8, 8, 3, padding=1)` builds, and
`partial(Block, groups=1)(64)` what `Block(64, groups=1)` does.  mypy's own partial plugin checks
the bound arguments against the callee's declared signature and, at the call, the call's arguments
against what is left of it; tyr's hooks for the callee never see the two together.  So a torch
module's type arguments would be read from the call's arguments alone (the bound `padding=1` read
as its default 0: a wrong shape), and a `Dim[D]` parameter would meet an `int` in a signature tyr
did not erase (an error the direct call does not have).

Here the partial is built by mypy's plugin from the callee as tyr's signature hook transforms it
for a direct call (shapes erased), and its type keeps the callee as declared and the bound
arguments' types (`TYR_PARTIAL`, beside mypy's own record).  A call of it is checked as the direct
call: the bound arguments, then the call's, against the callee through the same signature hook
and function hook as `callee(...)` (`replay`), so sizes are bound exactly as there, and unknown
where the direct call's would be.  Other partials are mypy's alone.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.checker import TypeChecker
from mypy.erasetype import erase_typevars
from mypy.nodes import ARG_NAMED, FUNC_NO_INFO, ArgKind, Expression, FuncDef, TempNode
from mypy.plugin import FunctionContext, MethodContext
from mypy.plugins.functools import partial_call_callback, partial_new_callback
from mypy.types import CallableType, Instance, NoneType, Type, get_proper_type

from tyr.mypy_plugin._calls import PendingCalls
from tyr.mypy_plugin._plain import loosen
from tyr.mypy_plugin._types import Lookup, Scope

PARTIAL = "functools.partial"
PARTIAL_CALL = "functools.partial.__call__"

TYR_PARTIAL = "__tyr_partial"
"""The extra attribute of a partial's type that records its call: a callable whose parameters are the
bound arguments (types, kinds, names), whose result is the callee as declared, and whose name is the
callee's full name (kept in mypy's cache, where a function's definition is not)."""

_MYPY_PARTIAL = "__mypy_partial"


def partial_hook(ctx: FunctionContext, pending: PendingCalls, lookup: Lookup, sized: Callable[[Type], bool]) -> Type:
    """`partial(callee, *args, **kwargs)`: mypy's partial of the callee as a direct call transforms it,
    recording the callee and the bound arguments where tyr's hooks give the call's sizes."""
    callee = _callee(ctx)
    name = _callee_name(callee) if callee is not None else None
    if callee is None or name is None or not isinstance(ctx.api, TypeChecker) or not sized(callee):
        return partial_new_callback(ctx)
    args, kinds, names, types = _actuals(ctx, 1)
    transformed = ctx.api.expr_checker.transform_callee_type(name, callee, args, kinds, ctx.context, names)
    # The transformed signature is only checked here; what a signature hook kept for the call's
    # binding (`_calls.erase_signature`) is for a call that never comes: dropped.
    pending.take(ctx.context, callee.arg_names)
    result = get_proper_type(partial_new_callback(ctx._replace(arg_types=[[transformed], *ctx.arg_types[1:]])))
    if not (isinstance(result, Instance) and result.extra_attrs and _MYPY_PARTIAL in result.extra_attrs.attrs):
        return result
    record = CallableType(types, kinds, names, callee, ctx.api.named_type("builtins.function"), name=name)
    # `partial[T]`'s `T` is read from the bound arguments alone: its sizes are unknown (the call's are `replay`'s).
    made = erase_typevars(loosen(result.args[0], Scope(lookup))) if result.args else None
    return result.copy_modified(args=[made] if made is not None else result.args).copy_with_extra_attr(TYR_PARTIAL, record)


def call_hook(ctx: MethodContext) -> Type:
    """`p(*args, **kwargs)` for a partial `p`: the direct call it stands for, where tyr recorded it."""
    record = _record(ctx.type)
    callee = get_proper_type(record.ret_type) if record is not None else None
    if record is None or record.name is None or not isinstance(callee, CallableType) or not isinstance(ctx.api, TypeChecker):
        return partial_call_callback(ctx)
    return replay(ctx, callee, record.name, record)


def replay(ctx: MethodContext, callee: CallableType, name: str, record: CallableType) -> Type:
    """Check `callee(bound..., given...)` as mypy checks a direct call of `name`: through the signature
    hook, then the call (whose function hook binds the sizes).  A keyword the call gives again
    replaces the bound one, as `functools.partial` does."""
    assert isinstance(ctx.api, TypeChecker)
    given_args, given_kinds, given_names, _ = _actuals(ctx, 0)
    again = {n for n, k in zip(given_names, given_kinds) if k == ARG_NAMED}
    kept = [i for i, n in enumerate(record.arg_names) if not (record.arg_kinds[i] == ARG_NAMED and n in again)]
    bound_args: list[Expression] = [TempNode(record.arg_types[i], context=ctx.context) for i in kept]
    args = [*bound_args, *given_args]
    kinds = [*(record.arg_kinds[i] for i in kept), *given_kinds]
    names = [*(record.arg_names[i] for i in kept), *given_names]
    checker = ctx.api.expr_checker
    signature = checker.transform_callee_type(name, callee, args, kinds, ctx.context, names)
    result, _ = checker.check_call(signature, args, kinds, ctx.context, names, callable_name=name)
    return result


def _callee(ctx: FunctionContext) -> CallableType | None:
    """The callee of `partial(callee, ...)` where it is one signature (mypy's plugin handles no other)."""
    if len(ctx.arg_types) != 3 or len(ctx.arg_types[0]) != 1:
        return None
    callee = get_proper_type(ctx.arg_types[0][0])
    if isinstance(callee, CallableType) and not callee.is_ellipsis_args:
        return callee
    return None


def _callee_name(callee: CallableType) -> str | None:
    """The full name a direct call of `callee` has for plugin hooks: a class's, a module-level
    function's.  (A bound method's hooks are a method's, which a partial's call does not reach.)"""
    if callee.is_type_obj():
        return callee.type_object().fullname
    definition = callee.definition
    if isinstance(definition, FuncDef) and definition.info is FUNC_NO_INFO:
        return definition.fullname
    return None


def _actuals(
    ctx: FunctionContext | MethodContext, first: int
) -> tuple[list[Expression], list[ArgKind], list[str | None], list[Type]]:
    """The arguments of a call from its formal `first` on, in order, each once (mypy maps a `*args`
    onto each formal it fills)."""
    args: list[Expression] = []
    kinds: list[ArgKind] = []
    names: list[str | None] = []
    types: list[Type] = []
    for formal in range(first, len(ctx.args)):
        for arg, kind, name, typ in zip(ctx.args[formal], ctx.arg_kinds[formal], ctx.arg_names[formal], ctx.arg_types[formal]):
            if any(arg is seen for seen in args):
                continue
            args.append(arg)
            kinds.append(kind)
            names.append(name)
            types.append(typ)
    return args, kinds, names, types


def _record(partial: Type) -> CallableType | None:
    p = get_proper_type(partial)
    if not (isinstance(p, Instance) and p.extra_attrs):
        return None
    record = get_proper_type(p.extra_attrs.attrs.get(TYR_PARTIAL, NoneType()))
    return record if isinstance(record, CallableType) else None

