"""Rebinding a name to a tensor whose shape is not fully known (SHAPES.md §6).

With `allow_redefinition`, mypy keeps a variable's declared type as the union of
everything assigned to it and, on each read, narrows that union to the members
that overlap the value last assigned.  A size tyr cannot know is `Any`, and `Any`
overlaps every size, so after `x = self.fc(x)` (a `Linear` built from plain ints)
a read of `x` would give `Tensor[B, T, D] | Tensor[B, T, Any]`: the old shape comes
back and fails a later check (`return x` against `Tensor[B, T, V]`).

So when a hook's result is a tensor not fully known, and the call is the value
assigned to a name (`x = <call>`), tyr drops from that name's declared type the
tensor shapes the new value overlaps.  mypy then narrows a read to exactly the new
value, and the name's shape is unknown from there on.  Members the value does not
overlap (another rank, other known sizes) stay: another path may still hold them.
The name's own variable is what mypy widens on such assignments anyway
(`TypeChecker.check_assignment`); tyr only does it the other way round.

In a loop (`for layer in self.layers: x = layer(x)`), mypy also keeps the shape the
name had before the loop, for the case the loop runs no time, and joins it with the
new one after the loop (`Tensor[B, I] | Tensor[B, Any]`): so where the loop starts,
a shape the new value could be is forgotten the same way (`_forget_before_loops`).
"""

from __future__ import annotations

from mypy.binder import ConditionalTypeBinder, CurrentType
from mypy.checker import TypeChecker
from mypy.literals import Key, literal_hash
from mypy.nodes import AssignmentStmt, Expression, FuncItem, MypyFile, NameExpr, Statement, Var
from mypy.plugin import FunctionContext, MethodContext
from mypy.subtypes import is_subtype
from mypy.types import AnyType, Instance, Type, TypeVarTupleType, UnionType, UnpackType, get_proper_type

from tyr.mypy_plugin import _names
from tyr.mypy_plugin._statements import walk

_SHAPED = (_names.TENSOR,)


class Assignments:
    """For each function (or module) body, which name each assigned expression is assigned to."""

    def __init__(self) -> None:
        self._by_body: dict[int, tuple[object, dict[int, NameExpr]]] = {}

    def clear(self) -> None:
        self._by_body.clear()

    def target(self, api: TypeChecker, value: Expression) -> NameExpr | None:
        """The name `value` is assigned to (`x = value`), if it is the whole value of such an assignment."""
        owner: FuncItem | MypyFile = api.scope.current_function() or api.tree
        known = self._by_body.get(id(owner))
        if known is None or known[0] is not owner:
            found: dict[int, NameExpr] = {}
            _collect(owner.body.body if isinstance(owner, FuncItem) else owner.defs, found)
            known = self._by_body[id(owner)] = (owner, found)
        return known[1].get(id(value))


def _collect(statements: list[Statement], found: dict[int, NameExpr]) -> None:
    for stmt in walk(statements):
        if isinstance(stmt, AssignmentStmt):
            if len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr) and stmt.type is None:
                found[id(stmt.rvalue)] = stmt.lvalues[0]


def settle(ctx: FunctionContext | MethodContext, result: Type, assignments: Assignments) -> Type:
    """`result`, after making the name it is assigned to (if any) forget the shapes it overlaps."""
    if not isinstance(ctx.api, TypeChecker) or not _partly_unknown(result):
        return result
    target = assignments.target(ctx.api, ctx.context)  # type: ignore[arg-type]
    var = target.node if target is not None else None
    if target is None or not isinstance(var, Var) or var.type is None or var.is_final:
        return result
    if not (var.is_inferred or var.is_argument):
        return result  # declared with an annotation: the user's declaration stands
    declared = get_proper_type(var.type)
    items = declared.items if isinstance(declared, UnionType) else [declared]
    kept = [item for item in items if not _stale(item, result)]
    if len(kept) == len(items):
        return result
    # With `result` in the declared type mypy does not widen it, and checks the assignment
    # against the name's current type instead: rewrite only where that check holds.
    current = ctx.api.expr_checker.narrow_type_from_binder(target, var.type)
    if not is_subtype(result, current):
        return result
    var.type = UnionType.make_union([*kept, result])
    key = literal_hash(target)
    binder = ctx.api.binder
    if key is not None and key in binder.declarations:
        binder.declarations[key] = var.type
        _forget_before_loops(binder, key, result)
    return result


def _forget_before_loops(binder: ConditionalTypeBinder, key: Key, result: Type) -> None:
    """Where each enclosing loop starts, the name's shape becomes `result` if it could be that.

    A loop that runs no time leaves the name as it was, a shape `result` admits (its
    unknown sizes fit it): so the name after the loop is `result`, never a union with it.
    """
    if not binder.break_frames:
        return
    for index in range(binder.break_frames[0], len(binder.frames) - 1):
        before = binder._get(key, index)
        if before is not None and _stale(before.type, result):
            binder.frames[index].types[key] = CurrentType(result, before.from_assignment)


def _stale(item: Type, result: Type) -> bool:
    """A tensor member of a declared type that a read after assigning `result` would wrongly keep.

    Narrowing keeps a member the new value could be (it is assignable to the member: its
    unknown sizes fit anything); a member that merely overlaps (`Tensor[Any, 5, 6]` against
    `Tensor[Any, 5, K]`) narrows away by itself.
    """
    p = get_proper_type(item)
    if not (isinstance(p, Instance) and p.type.fullname in _SHAPED):
        return False
    return p != get_proper_type(result) and is_subtype(result, p)


def _partly_unknown(result: Type) -> bool:
    """A tensor type with an unknown size or an unknown number of dims (or a union with one).

    A union comes from a call on a name mypy holds as a union (in a loop, the shape
    before the loop and the one the body assigns): mypy checks the call once per member.
    """
    t = get_proper_type(result)
    if isinstance(t, UnionType):
        return any(_partly_unknown(item) for item in t.items)
    if not (isinstance(t, Instance) and t.type.fullname in _SHAPED and t.type.has_type_var_tuple_type):
        return False
    for arg in t.args:
        if isinstance(arg, UnpackType):
            if not isinstance(get_proper_type(arg.type), TypeVarTupleType):
                return True
        elif isinstance(get_proper_type(arg), AnyType):
            return True
    return False
