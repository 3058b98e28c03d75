"""A local name assigned again, under mypy's defaults: declared as torch types its first value.

tyr types modules more closely than torch does: `nn.Linear(3, 4)` is a `Linear[3, 4]`,
an item of `nn.ModuleList([Block(...)])` is a `Block` where torch says `Module`.
Without `allow_redefinition`, mypy declares a local name by its first value and
holds every later value to it, so

    layer = nn.Linear(3, 4)
    layer = nn.Linear(4, 5)                      # a Linear[4, 5] is no Linear[3, 4]
    for i, block in enumerate(self.down): ...
    for i, block in enumerate(self.up): ...      # an up block is no down block

would be errors that torch's own types never give.  So where a local is assigned
more than once, its first value declares it as torch types that value
(`_plain.loosen`: `Linear[Any, Any]`; `Module` for an item of an `nn.ModuleList`),
and the name is narrowed to the value itself: a read keeps every size.

Only modules are declared so: tensors and sizes are `_rebinding`'s, and a value whose
type tyr gives no more than torch (a user's class, an `int`) is mypy's alone.  A value that is one branch of
a conditional value is left as it is: narrowing the name to a branch would be wrong
on the other path.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import CallExpr, Expression, ListExpr, NameExpr, RefExpr, TupleExpr
from mypy.plugin import AttributeContext, FunctionContext, MethodContext
from mypy.subtypes import is_same_type
from mypy.types import Instance, TupleType, Type, get_proper_type

from tyr.mypy_plugin import _names
from tyr.mypy_plugin._plain import loosen
from tyr.mypy_plugin._rebinding import Assignments, Body, Target
from tyr.mypy_plugin._trials import failed_attempt
from tyr.mypy_plugin._types import Lookup, Scope, is_int_literal

_ITERATORS = frozenset({"builtins.enumerate", "builtins.zip", "builtins.reversed"})
"""Builtins whose items are (or hold) the items of the iterables they are given."""


def declare_value(
    ctx: FunctionContext | MethodContext | AttributeContext, value: Type, assignments: Assignments, lookup: Lookup
) -> Type:
    """A hook's `value` (`nn.Linear(3, 4)`, `self.blocks[0]`, `self.stem`): what to give the names it is
    assigned to, if one is first assigned here and assigned again (see above)."""
    api = ctx.api
    if not _applies(api):
        return value
    assert isinstance(api, TypeChecker)
    body = assignments.body(api)
    target = body.targets.get(id(ctx.context))
    if target is None or id(ctx.context) in body.branches or id(ctx.context) in body.picked:
        return value  # (`picked`: an item of the value is assigned, `self.blocks` in `b = self.blocks[0]`)
    scope = Scope(lookup)
    torch = _module_item(scope, value) if _is_module_list_item(ctx) else loosen(value, scope)
    if is_int_literal(torch):  # a size as a value (`k = max(n, 1)`): an `int` to torch
        torch = scope.instance(_names.INT)
    return _declare(api, body, target, value, torch)


def declare_loop_index(ctx: MethodContext, item: Type, assignments: Assignments, lookup: Lookup) -> Type:
    """`item`, which the `__next__` of a `for` loop's iterator gives, as `declare_value` gives a value:
    torch's type for the index (`Module` for an item of an `nn.ModuleList`, also through
    `enumerate`, `zip` and `reversed`)."""
    api = ctx.api
    if not _applies(api) or not isinstance(ctx.context, Expression):
        return item
    assert isinstance(api, TypeChecker)
    body = assignments.body(api)
    target = body.loops.get(id(ctx.context))
    if target is None:
        return item
    return _declare(api, body, target, item, _item_as_torch(api, Scope(lookup), ctx.context, item))


def _applies(api: object) -> bool:
    # With `allow_redefinition` mypy widens a name's declaration to take each value itself.
    return isinstance(api, TypeChecker) and not api.options.allow_redefinition and not failed_attempt(api)


def _declare(api: TypeChecker, body: Body, target: Target, value: Type, torch: Type) -> Type:
    """What to assign `target` for `value`: `torch` for a name declared here and assigned again, after
    narrowing the name to `value`; item by item for a tuple of names."""
    if isinstance(target, NameExpr):
        if not body.first_of_several(target):
            return value
        p = get_proper_type(value)
        if not (isinstance(p, Instance) and p.type.has_base(_names.MODULE) or is_int_literal(p)) or is_same_type(torch, value):
            return value  # (a tensor is rebound by `_rebinding`)
        api.binder.put(target, value)
        return torch
    p, t = get_proper_type(value), get_proper_type(torch)
    if not (isinstance(p, TupleType) and isinstance(t, TupleType) and len(p.items) == len(t.items) == len(target.items)):
        return value
    items = [
        _declare(api, body, name, v, w) if isinstance(name, (NameExpr, TupleExpr, ListExpr)) else v
        for name, v, w in zip(target.items, p.items, t.items)
    ]
    return p.copy_modified(items=items)


def _item_as_torch(api: TypeChecker, scope: Scope, iterable: Expression, item: Type) -> Type:
    """How torch types `item`, an item of `iterable`."""
    iterated = get_proper_type(api.lookup_type_or_none(iterable))
    if isinstance(iterated, Instance) and iterated.type.has_base(_names.MODULE_LIST):
        return _module_item(scope, item)
    callee = iterable.callee if isinstance(iterable, CallExpr) else None
    if isinstance(iterable, CallExpr) and isinstance(callee, RefExpr) and callee.fullname in _ITERATORS:
        p = get_proper_type(item)
        args = iterable.args
        if callee.fullname == "builtins.reversed" and len(args) == 1:
            return _item_as_torch(api, scope, args[0], item)
        if callee.fullname == "builtins.enumerate" and args and isinstance(p, TupleType) and len(p.items) == 2:
            return p.copy_modified(items=[p.items[0], _item_as_torch(api, scope, args[0], p.items[1])])
        if callee.fullname == "builtins.zip" and isinstance(p, TupleType) and len(p.items) == len(args):
            return p.copy_modified(items=[_item_as_torch(api, scope, a, i) for a, i in zip(args, p.items)])
    return loosen(item, scope)


def _is_module_list_item(ctx: FunctionContext | MethodContext | AttributeContext) -> bool:
    """`blocks[i]`, `blocks.pop()` of an `nn.ModuleList`: an item, which torch types `Module`."""
    receiver = get_proper_type(ctx.type) if isinstance(ctx, (MethodContext, AttributeContext)) else None
    return isinstance(receiver, Instance) and receiver.type.has_base(_names.MODULE_LIST)


def _module_item(scope: Scope, item: Type) -> Type:
    """torch's `Module` for a module that an `nn.ModuleList` holds (a slice of one is a `ModuleList`)."""
    p = get_proper_type(item)
    if isinstance(p, Instance) and p.type.has_base(_names.MODULE) and not p.type.has_base(_names.MODULE_LIST):
        return scope.instance(_names.MODULE)
    return loosen(item, scope)
