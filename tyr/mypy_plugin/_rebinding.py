"""Rebinding a name to a tensor whose shape is not fully known (SHAPES.md §6).

With `allow_redefinition`, mypy keeps a variable's declared type as the union of
everything assigned to it and, on each read, narrows that union to the members
that overlap the value last assigned.  A size tyr cannot know is `Any`, and `Any`
overlaps every size, so after `x = self.fc(x)` (a `Linear` built from plain ints)
a read of `x` would give `Tensor[B, T, D] | Tensor[B, T, Any]`: the old shape comes
back and fails a later check (`return x` against `Tensor[B, T, V]`).

Worse, a member of the union that the value only overlaps is narrowed by meeting
the two: after `q = q.transpose(1, 2)` with `q` declared `Tensor[B, T, Any, Any]`, a
read would give `Tensor[B, T, T, Any]`, a shape that is wrong.

So when a hook's result is a tensor not fully known (or torch's `Any`), and the
call is the value assigned to a name (`x = <call>`, one item of a tuple assignment:
`q, k = q.transpose(1, 2), k.transpose(1, 2)`, `q, k = rotate(q, k)`, or a branch of
a conditional value), tyr rewrites the name's declared type:

* its tensor members become one tensor of the value's rank with every size unknown
  (`Tensor[Any, Any, Any, Any]`; of unknown rank for a value of unknown rank or `Any`).
  mypy narrows that by a value of the rank to exactly the value, so a read gives what
  was last assigned, never a shape met from the old and the new;
* the paths that skip the assignment (a loop that does not run, a branch not taken)
  hold, for the name, only what their shape shares with the new value, so where the
  paths meet no union with the old shape is left to fail a later check;
* a name assigned from this one later (`q = k`, where no hook runs) is loosened the
  same way, where it has a declared type by then.

mypy widens the name's own variable on such assignments anyway
(`TypeChecker.check_assignment`); tyr only loosens it the other way round.  A call
mypy merely tries (an overload item whose arguments do not match) rewrites nothing.
A name rebound where no hook runs at all (`z = k if c else z`, with `z` typed after
`k`) keeps mypy's narrowing.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cached_property
from typing import Union

from mypy.binder import CurrentType
from mypy.checker import TypeChecker
from mypy.literals import Key, literal, literal_hash
from mypy.nodes import (
    LITERAL_TYPE,
    AssignmentStmt,
    CallExpr,
    ConditionalExpr,
    Context,
    Decorator,
    DictExpr,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    FuncItem,
    GeneratorExpr,
    IndexExpr,
    LambdaExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    SetComprehension,
    SetExpr,
    StarExpr,
    SymbolNode,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
)
from mypy.plugin import AttributeContext, CheckerPluginInterface, FunctionContext, MethodContext
from mypy.subtypes import is_proper_subtype, is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    FunctionLike,
    Instance,
    LiteralType,
    NoneType,
    Overloaded,
    PartialType,
    ProperType,
    TupleType,
    Type,
    TypedDictType,
    TypeOfAny,
    TypeType,
    TypeVarTupleType,
    UninhabitedType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._aliases import Aliases
from tyr.mypy_plugin._args import literal_int, one_argument
from tyr.mypy_plugin._jaxtyping_imports import imports_shapes, imports_tyr
from tyr.mypy_plugin._partials import forget_inferred
from tyr.mypy_plugin._receivers import union_receiver
from tyr.mypy_plugin._statements import PerNode, placed
from tyr.mypy_plugin._trials import failed_attempt, has_new_errors
from tyr.mypy_plugin._types import mentions_shapes, shape_class

Target = Union[NameExpr, TupleExpr, ListExpr]
"""What an expression is assigned to: a name, or a tuple of targets that unpacks it."""


class Body:
    """The assignments of one function (or module) body that `settle` follows."""

    def __init__(self, owner: FuncItem | MypyFile) -> None:
        self.owner = owner
        self.targets: dict[int, Target] = {}  # the id of a value expression: what it is assigned to
        self.aliases: dict[int, list[NameExpr]] = {}  # the id of a variable: names assigned from it (`q = k`)
        self.sources: dict[int, list[Var]] = {}  # the id of a variable: the variables assigned to it (`k` for `q`)
        self.branches: set[int] = set()  # the ids of values that are a branch of a conditional value
        self.picked: dict[int, int] = {}  # the id of a call whose result's item is the value: that index
        self.assigned: dict[int, int] = {}  # the id of a variable: how many assignments name it
        self.augmented: dict[int, int] = {}  # the id of a variable: how many `+=` & co. name it
        # the ids of variables also assigned a value no hook types: `w = self.weight`, `q = k`, `a, b = pair`,
        # a `for` loop's index
        self.unhooked: set[int] = set()
        # the ids of names assigned where a jump always follows in the block (`if c: y = f(y); return y`)
        self.jumping: set[int] = set()
        self.loops: dict[int, Target] = {}  # the id of a `for` loop's iterable: the loop's index
        # the id of a call inside a value whose `Any` makes the value `Any` (`untyped(v) @ m`): the target
        self.spines: dict[int, Target] = {}
        self.in_place: set[int] = set()  # the ids of the names augmented assignments assign (`n *= 2`)
        # the id of an item of a list, set, tuple or dict display assigned to a name (`outs = [f(x)]`): the name
        self.displayed: dict[int, NameExpr] = {}
        self.indexes: set[int] = set()  # the ids of the names a `for` loop assigns
        # the id of the expression each item of an unpacked map or comprehension is (`q, k = map(lambda t:
        # rearrange(t, ...), (q, k))`, `q, k = [f(t) for t in (q, k)]`): the names it unpacks into
        self.each: dict[int, list[NameExpr]] = {}
        # the ids of those of them where other paths go on (in a branch or a loop): what the name is
        # declared there is what the paths that skip the block read
        self.jumping_aside: set[int] = set()
        self.attributes: set[int] = set()  # the ids of the attributes assigned (`self.fc = ...`, `m.fc = ...`)
        self.attribute_values: dict[int, MemberExpr] = {}  # the id of a value assigned to an attribute: the attribute
        statements = owner.body.body if isinstance(owner, FuncItem) else owner.defs
        for stmt, jumps_after, conditional in placed(statements):
            if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and stmt.type is None:
                self._pair(stmt.lvalues[0], stmt.rvalue)
                if jumps_after:
                    names = {id(name) for name in _names_in(stmt.lvalues[0])}
                    self.jumping |= names
                    if conditional:
                        self.jumping_aside |= names
            elif isinstance(stmt, OperatorAssignmentStmt):
                self._count(stmt.lvalue, self.augmented)
                if isinstance(stmt.lvalue, NameExpr):
                    # `n *= 2` of an `int`: mypy types `n * 2` (an `OpExpr` it makes, on `stmt.lvalue`) and assigns it
                    self.in_place.add(id(stmt.lvalue))
            elif isinstance(stmt, ForStmt) and stmt.index_type is None and _unpacks(stmt.index):
                assert isinstance(stmt.index, (NameExpr, TupleExpr, ListExpr))
                self.loops[id(stmt.expr)] = stmt.index
                self._count(stmt.index)
                self.indexes |= {id(name) for name in _names_in(stmt.index)}
                self._unhooked(stmt.index)

    @cached_property
    def shaped(self) -> bool:
        """Whether the function's signature has shapes (`Tensor[B, T]`, `Dim[D]`).  A function without
        declares a rebound tensor name the tensor of unknown shape, as torch's types do, so that mypy
        reports assigning it what is no tensor on that line, as without tyr (`Any` would take it)."""
        return isinstance(self.owner, FuncItem) and _signature_has_shapes(self.owner)

    def _pair(self, target: Expression, value: Expression) -> None:
        if isinstance(value, ConditionalExpr):  # `x = f(x) if c else g(x)`: either branch is the value
            self.branches |= {id(value.if_expr), id(value.else_expr)}
            self._pair(target, value.if_expr)
            self._pair(target, value.else_expr)
        elif isinstance(target, NameExpr):
            self._count(target)
            if isinstance(value, NameExpr) and isinstance(value.node, Var) and value.node is not target.node:
                self.aliases.setdefault(id(value.node), []).append(target)
                if isinstance(target.node, Var):
                    self.sources.setdefault(id(target.node), []).append(value.node)
                self._unhooked(target)
            else:
                self.targets[id(value)] = target
                for item in _display_items(value):
                    self.displayed[id(item)] = target
                for call in _spine_calls(value):
                    self.spines[id(call)] = target
                    if id(value) in self.branches:
                        self.branches.add(id(call))
                if isinstance(value, MemberExpr):
                    self._unhooked(target)
                picked = _picked_item(value)
                if picked is not None:  # `y = y.split(3, dim=-1)[-1]`: the call's hook settles the name with that item
                    base, index = picked
                    self.targets[id(base)] = target
                    self.picked[id(base)] = index
        elif isinstance(target, MemberExpr):
            self.attributes.add(id(target))
            self.attribute_values[id(value)] = target
        elif isinstance(target, (TupleExpr, ListExpr)) and not any(isinstance(t, StarExpr) for t in target.items):
            if isinstance(value, (TupleExpr, ListExpr)):  # `q, k = f(q), g(k)`: mypy assigns item by item
                if len(value.items) == len(target.items) and not any(isinstance(v, StarExpr) for v in value.items):
                    for t, v in zip(target.items, value.items):
                        self._pair(t, v)
            else:  # `q, k = f(q, k)`: the result's items, in order
                self.targets[id(value)] = target
                self._count(target)
                item = _each_item(value)
                if item is not None and all(isinstance(t, NameExpr) for t in target.items):
                    self.each[id(item)] = [t for t in target.items if isinstance(t, NameExpr)]
                elif not isinstance(value, CallExpr):  # `wav, text = sample[key]`
                    self._unhooked(target)

    def first_of_several(self, target: NameExpr) -> bool:
        """Whether `target` is where mypy declares a local (its first assignment) that the body assigns again:
        under mypy's defaults, the value there must be typed as torch types it to take the later ones."""
        var = target.node
        return target.is_inferred_def and isinstance(var, Var) and self.assigned.get(id(var), 0) > 1

    def _unhooked(self, target: Expression) -> None:
        self.unhooked |= {id(name.node) for name in _names_in(target) if isinstance(name.node, Var)}

    def _count(self, target: Expression, counts: dict[int, int] | None = None) -> None:
        counts = self.assigned if counts is None else counts
        for name in _names_in(target):
            if isinstance(name.node, Var):
                counts[id(name.node)] = counts.get(id(name.node), 0) + 1


def _each_item(value: Expression) -> Expression | None:
    """The expression that gives each item of a `map` of a lambda or a comprehension: `rearrange(t, ...)` in
    `map(lambda t: rearrange(t, ...), xs)` and in `[rearrange(t, ...) for t in xs]`."""
    if isinstance(value, (ListComprehension, SetComprehension)):
        return value.generator.left_expr
    if isinstance(value, GeneratorExpr):
        return value.left_expr
    if isinstance(value, CallExpr) and isinstance(value.callee, NameExpr) and value.callee.fullname == "builtins.map":
        if len(value.args) == 2 and isinstance(value.args[0], LambdaExpr):
            return value.args[0].expr()
    return None


def _display_items(value: Expression) -> list[Expression]:
    """The items of a list, set or tuple display, the values of a dict display; none for another value."""
    if isinstance(value, (ListExpr, SetExpr, TupleExpr)):
        return [item for item in value.items if not isinstance(item, StarExpr)]
    if isinstance(value, DictExpr):
        return [item for _, item in value.items]
    return []


def _unpacks(target: Expression) -> bool:
    """A name, or a tuple of targets without a starred one that `_settle` can unpack into."""
    if isinstance(target, NameExpr):
        return True
    return isinstance(target, (TupleExpr, ListExpr)) and all(
        isinstance(t, (NameExpr, TupleExpr, ListExpr)) and _unpacks(t) for t in target.items
    )


def _names_in(target: Expression) -> Iterator[NameExpr]:
    if isinstance(target, NameExpr):
        yield target
    elif isinstance(target, (TupleExpr, ListExpr)):
        for item in target.items:
            yield from _names_in(item)


def _spine_calls(value: Expression) -> Iterator[CallExpr]:
    """The calls inside `value` whose result, where it is `Any`, makes `value` `Any` with no hook to see it:
    the left operand of an operator, the object of an attribute or an index, and so on down
    (`rotate(v) @ m`, `helper(x).float()[0]`, `-helper(x)`)."""
    e = value
    while True:
        if isinstance(e, OpExpr) and e.op not in ("and", "or"):
            e = e.left
        elif isinstance(e, UnaryExpr) and e.op != "not":
            e = e.expr
        elif isinstance(e, (IndexExpr, MemberExpr)):
            e = e.base if isinstance(e, IndexExpr) else e.expr
        elif isinstance(e, CallExpr):
            if e is not value:
                yield e
            if not isinstance(e.callee, MemberExpr):
                return
            e = e.callee.expr
        else:
            return


def _picked_item(value: Expression) -> tuple[Expression, int] | None:
    """`call(...)` and `i` for a value `call(...)[i]` (or `x.attribute[i]`, `x.shape[0]`) with a literal
    `i` (`-1` included); None for any other value."""
    if not (isinstance(value, IndexExpr) and isinstance(value.base, (CallExpr, MemberExpr))):
        return None
    index = literal_int(value.index)
    return None if index is None or index.const_value is None else (value.base, index.const_value)


def in_code_with_shapes(api: CheckerPluginInterface) -> bool:
    """Whether the user adopted tyr in the code being checked: a function whose signature has
    shapes, any code of a file that imports tyr, or the top level of one that imports jaxtyping
    (which libraries use without tyr: their other functions are code without shapes).  In a run
    that exports its types (`tyr shapes`, which reports on code without annotations), all code is."""
    if not isinstance(api, TypeChecker):
        return False
    if api.options.export_types:
        return True
    function = api.scope.current_function()
    if function is None:
        return _IMPORTS_SHAPES(api.tree)
    return _SIGNATURE_HAS_SHAPES(function) or _IMPORTS_TYR(api.tree)


def forget_code_with_shapes() -> None:
    """A new build: the answers `in_code_with_shapes` remembers (it is asked at every module call) go."""
    for answers in (_SIGNATURE_HAS_SHAPES, _IMPORTS_TYR, _IMPORTS_SHAPES):
        answers.clear()


def _signature_has_shapes(function: FuncItem) -> bool:
    signature = get_proper_type(function.type)
    if not isinstance(signature, CallableType):
        return False
    return any(mentions_shapes(t) for t in (*signature.arg_types, signature.ret_type))


_SIGNATURE_HAS_SHAPES: PerNode[FuncItem, bool] = PerNode(_signature_has_shapes)
_IMPORTS_TYR: PerNode[MypyFile, bool] = PerNode(imports_tyr)
_IMPORTS_SHAPES: PerNode[MypyFile, bool] = PerNode(imports_shapes)


class Assignments:
    """For each function (or module) body, what each assigned expression is assigned to."""

    def __init__(self) -> None:
        self._bodies: PerNode[FuncItem | MypyFile, Body] = PerNode(Body)
        # The innermost scope last asked about and its body: hooks run call after call in one function.
        self._last: tuple[object, Body] | None = None

    def clear(self) -> None:
        self._bodies.clear()
        self._last = None

    def body(self, api: TypeChecker) -> Body:
        """The body of the function being checked; a lambda's is that of the function it is in, which assigns
        what the lambda gives (`q, k = map(lambda t: rearrange(t, ...), (q, k))`)."""
        stack = api.scope.stack
        innermost = stack[-1] if stack else api.tree
        if self._last is not None and self._last[0] is innermost:
            return self._last[1]
        owner: FuncItem | MypyFile = api.tree
        for scope in reversed(stack):
            if isinstance(scope, FuncItem) and not isinstance(scope, LambdaExpr):
                owner = scope
                break
        body = self._bodies(owner)
        self._last = (innermost, body)
        return body

    def assigns(self, api: object, attribute: Context) -> bool:
        """Whether `attribute` (`m.fc`) is what an assignment of the current body assigns."""
        return isinstance(api, TypeChecker) and id(attribute) in self.body(api).attributes


def settle(ctx: FunctionContext | MethodContext | AttributeContext, result: Type, assignments: Assignments) -> Type:
    """`result`, after making the names it is assigned to (if any) forget the shapes it overlaps.

    The value is assigned to `x` in `x = value` (or `x = value if c else ...`), to `q` in
    `q, k = value, other`, to `q` and `k` in `q, k = value`.
    """
    if not isinstance(ctx.api, TypeChecker):
        return result
    forget_inferred(ctx.api)
    if isinstance(ctx, MethodContext):
        _reshaped_in_place(ctx, ctx.api, result)
    if isinstance(ctx, AttributeContext):
        _data_replaced(ctx, ctx.api)
    else:
        _written_out(ctx, ctx.api, result)
    # a plain `int` rebinds a name only as `Dim` arithmetic's result (`ch = base * m`, `m: int`)
    if not (_rebinds(result) or _is_int(get_proper_type(result)) and isinstance(ctx.context, OpExpr)):
        return result
    body = assignments.body(ctx.api)
    displayed = body.displayed.get(id(ctx.context))
    if displayed is not None:
        return _display_item(ctx.api, body, displayed, result)
    for name in body.each.get(id(ctx.context), []):  # each name unpacked is assigned one such item
        _assigned(ctx, body, name, result)
    target = body.targets.get(id(ctx.context))
    if isinstance(target, NameExpr):
        _settle_loop_carried(ctx.api, target)
    if target is None and isinstance(ctx.context, OpExpr) and id(ctx.context.left) in body.in_place:
        assert isinstance(ctx.context.left, NameExpr)
        target = ctx.context.left
    spine = body.spines.get(id(ctx.context)) if target is None else None
    if target is None and spine is None:
        return result  # (most calls: nothing is assigned their value)
    whole = union_receiver(ctx)
    if whole is not None and not all(_is_tensor(member) for member in whole.items):
        # The value assigned is the union of the members' results, of which this is the tensor's
        # (`loss / n` on `Any | Tensor | int`).  (Tensor members all give what their results share.)
        return result
    if target is None:
        assert spine is not None
        if isinstance(get_proper_type(result), AnyType):
            _assigned(ctx, body, spine, result)  # `m = untyped(v) @ m`: the value is this `Any`
        return result
    index = body.picked.get(id(ctx.context))
    if index is not None:
        return _item_settled(ctx, body, target, result, index)
    return _assigned(ctx, body, target, result)


def _display_item(api: TypeChecker, body: Body, target: NameExpr, item: Type) -> Type:
    """`item`, a tensor in a display that first assigns a local assigned again (`outs = [torch.zeros(3)]`,
    later `outs = [torch.zeros(4)]`), under mypy's defaults: the tensor of unknown shape, as torch
    types it.  mypy types the display from its items alone and declares the name by it; a later
    display of other shapes would be an error torch's types never give.  (Reads of the items are
    of unknown shape: a display is typed before the name, so it cannot be narrowed to the shapes.)"""
    if api.options.allow_redefinition or not body.first_of_several(target) or not _is_tensor(item) or not _has_shape(item):
        return item
    p = get_proper_type(item)
    assert isinstance(p, Instance)
    return _unknown_rank(api, p)


def settle_iteration(ctx: MethodContext, item: Type, assignments: Assignments) -> Type:
    """`item`, which `__next__` of the iterator a `for` loop runs over gives (`for t in ts`), after the
    loop's index is rebound to it as an assignment (`settle`) would be.

    mypy declares a loop's index by the first loop that assigns it, and holds later loops (and
    assignments) to that.  tyr's items say more than torch's (`Tensor[B, 4]` for `Tensor`), so a
    second loop over other items (`for t in outs` after `for t in xs`) would be an error that
    torch's types never give.  Rebound as an assignment is, a read in the loop gives its item,
    and a loop of other items is no error.  (Modules are `_declared`'s.)
    """
    api = ctx.api
    if not isinstance(api, TypeChecker) or failed_attempt(api) or not _rebinds(item):
        return item
    body = assignments.body(api)
    target = body.loops.get(id(ctx.context))
    if target is None:
        return item
    forget_inferred(api)
    return _assigned(ctx, body, target, item)


def _assigned(ctx: FunctionContext | MethodContext | AttributeContext, body: Body, target: Target, value: Type) -> Type:
    """`value`, the value of the hook's call, rebinding `target`: what to give it (`_settle`, or
    `_rebind_declared` under mypy's defaults)."""
    assert isinstance(ctx.api, TypeChecker)
    # In a conditional value the other branch may still read the old value, from the frames
    # around it: those are joined only where the whole value is assigned.
    whole = id(ctx.context) not in body.branches
    if ctx.api.options.allow_redefinition:
        return _settle(ctx.api, body, target, value, join=whole)
    untyped = not isinstance(ctx, AttributeContext) and isinstance(get_proper_type(ctx.default_return_type), AnyType)
    return _rebind_declared(ctx.api, body, target, value, whole=whole, untyped=untyped)


def _item_settled(
    ctx: FunctionContext | MethodContext | AttributeContext, body: Body, target: Target, result: Type, index: int
) -> Type:
    """`result`, of which item `index` is assigned to `target` (`y = y.split(3)[-1]`), with that item
    settled as the whole value would be."""
    p = get_proper_type(result)
    if isinstance(p, TupleType):
        if not -len(p.items) <= index < len(p.items):
            return result
        item = p.items[index]
    else:
        any_length = _any_length_item(p)
        if any_length is None:
            return result
        item = any_length
    if not _rebinds(item):
        return result
    settled = _assigned(ctx, body, target, item)
    if settled is item or not isinstance(p, TupleType):
        return result
    items = list(p.items)
    items[index] = settled
    return p.copy_modified(items=items)


RESHAPED_IN_PLACE = frozenset(
    {"unsqueeze_", "squeeze_", "t_", "transpose_", "swapdims_", "swapaxes_", "resize_", "resize_as_",
     "as_strided_", "set_"}
)
"""Tensor methods that change the shape of the tensor they are called on."""


def _reshaped_in_place(ctx: MethodContext, api: TypeChecker, result: Type) -> None:
    """`y.unsqueeze_(0)`: the tensor a name holds changes shape with no assignment (`_changed`)."""
    call = ctx.context
    if not (isinstance(call, CallExpr) and isinstance(call.callee, MemberExpr)):
        return
    if call.callee.name not in RESHAPED_IN_PLACE:
        return
    innermost = _in_place_chain(call)[-1].callee
    assert isinstance(innermost, MemberExpr)
    receiver = innermost.expr  # `y` in `y.unsqueeze_(0).unsqueeze_(-1)`
    old = get_proper_type(ctx.type)
    if not isinstance(old, Instance) and call.args and ctx.arg_types and ctx.arg_types[0]:
        # `torch.Tensor.unsqueeze_(y, 0)`: called on the class, the tensor is the first argument
        receiver, old = call.args[0], get_proper_type(ctx.arg_types[0][0])
    _changed(api, call, receiver, old, result)


def _written_out(ctx: FunctionContext | MethodContext, api: TypeChecker, result: Type) -> None:
    """`torch.add(a, b, out=y)`: torch resizes `y` to the result's shape (`_changed`)."""
    call = ctx.context
    if not isinstance(call, CallExpr) or "out" not in call.arg_names:
        return
    out = one_argument(ctx, "out")
    if out is not None:
        _changed(api, call, out[0], get_proper_type(out[1]), result)


def _data_replaced(ctx: AttributeContext, api: TypeChecker) -> None:
    """`x.data = y`: `x` holds a tensor of `y`'s shape, which the attribute's hook is not told."""
    target = ctx.context
    if ctx.is_lvalue and isinstance(target, MemberExpr) and target.name == "data":
        old = get_proper_type(ctx.type)
        _changed(api, None, target.expr, old, _unknown_rank(api, old) if isinstance(old, Instance) else old)


def _changed(api: TypeChecker, call: CallExpr | None, receiver: Expression, old: ProperType, result: Type) -> None:
    """The tensor `receiver` holds became `result` in `call`.  From the call on, the name is declared a
    tensor of unknown shape (where mypy inferred its type), and so the paths that may not have run
    the call hold.  A read after a call the function always runs once (a statement of its body,
    not of a branch or a loop) gives the call's result (`Tensor[1, B, T, D]`); after any other, the
    unknown shape, never the old one nor a union of shapes that a later check could fail on.  The
    other names that may hold the same tensor (`_forget_aliases`) are unknown from then on too."""
    key = literal_hash(receiver)
    if key is None or literal(receiver) != LITERAL_TYPE or not isinstance(old, Instance) or not _is_tensor(old):
        return
    now = get_proper_type(result)
    if now == old:
        return
    owner = api.scope.current_function() or api.tree
    statements = owner.body.body if isinstance(owner, FuncItem) else owner.defs
    once = call is not None and any(
        isinstance(st, ExpressionStmt) and isinstance(st.expr, CallExpr) and call in _in_place_chain(st.expr) for st in statements
    )
    unknown = _unknown_rank(api, old)
    _hold_changed(api, receiver, key, unknown, now if once and _is_tensor(now) else unknown)
    if isinstance(receiver, NameExpr) and isinstance(receiver.node, Var):
        _forget_aliases(api, owner, receiver.node)


def _hold_changed(api: TypeChecker, receiver: Expression, key: Key, unknown: Instance, read: Type) -> None:
    """`receiver`'s tensor changed shape: a name of it is declared the tensor of unknown shape (where mypy
    inferred its type), it reads as `read` from here on, and as `unknown` where the paths that
    may not have run the change meet this one."""
    if isinstance(receiver, NameExpr) and isinstance(receiver.node, Var):
        var = receiver.node
        if var.type is not None and not var.is_final and (var.is_inferred or var.is_argument):
            _declare(api, receiver, var, unknown)
    api.binder.put(receiver, read)
    hold_on_skipped_paths(api, key, unknown)


def _forget_aliases(api: TypeChecker, owner: FuncItem | MypyFile, var: Var) -> None:
    """After `x.t_()`, the other names that may hold `x`'s tensor (`y = x`, `y = x.unsqueeze_(0)`) read as
    a tensor of unknown shape: their types no longer say what they hold."""
    for name in Aliases(owner).of(var):
        assert isinstance(name.node, Var)
        declared = get_proper_type(name.node.type) if name.node.type is not None else None
        key = literal_hash(name)
        if isinstance(declared, Instance) and _is_tensor(declared) and key is not None:
            unknown = _unknown_rank(api, declared)
            _hold_changed(api, name, key, unknown, unknown)


def _in_place_chain(call: CallExpr) -> list[CallExpr]:
    """`call` and the in-place reshaping calls it is made on, outermost first (`y.unsqueeze_(0).t_()`:
    each changes `y`, the last one's receiver)."""
    chain = [call]
    while True:
        receiver = chain[-1].callee.expr if isinstance(chain[-1].callee, MemberExpr) else None
        if not (isinstance(receiver, CallExpr) and isinstance(receiver.callee, MemberExpr)):
            return chain
        if receiver.callee.name not in RESHAPED_IN_PLACE:
            return chain
        chain.append(receiver)


def hold_on_skipped_paths(api: TypeChecker, key: Key, held: Type) -> None:
    """The paths that skip a change to a name (a branch not taken, a loop that does not run) hold `held`
    for it too: where the paths meet, it is not the old type that comes back."""
    for frame in api.binder.frames[:-1]:
        current = frame.types.get(key)
        if current is not None:
            frame.types[key] = CurrentType(held, current.from_assignment)


def _settle_loop_carried(api: TypeChecker, target: NameExpr) -> None:
    """A name rebound in a loop's body to a tensor of another shape than it had before the loop
    (`v = v.unsqueeze(0)`, `x = torch.cat([x, y], -1)`): mypy checks the body again with the name as
    the union of what each pass left (`Tensor[H, B] | Tensor[1, H, B] | ...`), up to a few passes.
    The checker cannot know how many times the loop runs, so the name there, and after the loop,
    has the shape they share (`_shared`): a union would fail a check (`return v`) on a member that
    is not the value, or be a stale shape.  (`_join_paths` writes that into the paths that skip
    the loop; this is the path that goes round it.)"""
    if not api.binder.continue_frames:
        return
    key = literal_hash(target)
    if key is None:
        return
    loop = api.binder.frames[api.binder.continue_frames[-1]]  # where the passes meet
    current = loop.types.get(key)
    if current is None:
        return
    members = _members(current.type)
    if len(members) < 2 or not all(_is_tensor(m) for m in members):
        return
    shared = members[0]
    for member in members[1:]:
        shared = _shared(shared, member, api)
    loop.types[key] = CurrentType(shared, current.from_assignment)
    var = target.node
    if api.options.allow_redefinition and isinstance(var, Var):
        # the name's declared type, widened by each pass, would narrow back to the union on a read
        loose = _loosened(api, var, shared)
        if loose is not None:
            _declare(api, target, var, loose)


def _rebinds(result: Type) -> bool:
    """Whether `_settle` can change a name assigned `result`: it is `Any`, a tensor, or a tuple holding one
    (checked first, as most calls give neither, so that their function's assignments are never collected)."""
    p = get_proper_type(result)
    if isinstance(p, TupleType):
        return any(_rebinds(item) for item in p.items)
    item = _any_length_item(p)
    if item is not None:
        return _rebinds(item)  # `k, v = x.chunk(2)` of a dim whose size is a symbol
    return isinstance(p, AnyType) or _is_tensor(p) or _is_size(p)


def holds_tensor(result: Type) -> bool:
    """Whether a value is a tensor or a tuple holding one: what a read of a container must settle
    (`x = outs[-1]`, `x = cache.pop()`, `x = feats["p3"]`)."""
    p = get_proper_type(result)
    if isinstance(p, TupleType):
        return any(holds_tensor(item) for item in p.items)
    return _is_tensor(p)


CONTAINER_READS = frozenset(
    {
        *(f"builtins.list.{m}" for m in ("__getitem__", "pop")),
        *(f"builtins.dict.{m}" for m in ("__getitem__", "get", "pop")),
        *(f"typing.{c}.__getitem__" for c in ("Sequence", "Mapping", "MutableSequence", "MutableMapping")),
        "typing.Mapping.get",
        "typing.MutableSequence.pop",
        "typing.MutableMapping.pop",
        *(f"collections.deque.{m}" for m in ("__getitem__", "pop", "popleft")),
    }
)
"""Reads of a builtin container, whose item rebinds a tensor name (`x = outs[-1]`, `h = hs.pop()`): no
other hook runs there, and mypy would meet the name's old shape with the item's unknown one."""


def _is_int(p: ProperType) -> bool:
    """A plain `int`, as a size tyr does not know is typed (`base * m` with `m: int`)."""
    return isinstance(p, Instance) and p.type.fullname == _names.INT and p.last_known_value is None


def _is_size(p: ProperType) -> bool:
    """A size tyr knows (`Literal[4]`, `Dim[B]`), as `x.size(1)` and `x.shape` give."""
    return (
        isinstance(p, LiteralType) and isinstance(p.value, int) and not isinstance(p.value, bool)
        or isinstance(p, Instance) and p.type.fullname == _names.DIM
    )


def _any_length_item(p: ProperType) -> Type | None:
    """The item type of a tuple of any length (`tuple[Tensor[B, Any], ...]`); None for anything else."""
    if isinstance(p, Instance) and p.type.fullname == _names.TUPLE and len(p.args) == 1:
        return p.args[0]
    return None


def may_rebind(callee: SymbolNode | None) -> bool:
    """Whether a call of `callee` can give what `settle` acts on, judged from its declared type: a function
    whose result is declared `int`, `None` or a module (a class, called) never does, and needs no hook.
    A callee not known (or whose type mypy has not inferred yet) may."""
    if isinstance(callee, TypeInfo):
        # An instance of the class; a named tuple's is a tuple, and a `__new__` may declare anything.
        new = callee.get("__new__")
        return (
            callee.fullname in _TENSOR_MRO
            or callee.tuple_type is not None
            or new is not None and new.fullname != _names.OBJECT_NEW
        )
    if isinstance(callee, (FuncDef, OverloadedFuncDef, Var)):
        declared = callee.type
    elif isinstance(callee, Decorator):
        declared = callee.var.type
    else:
        return True
    signature = get_proper_type(declared) if declared is not None else None
    if not isinstance(signature, FunctionLike):
        return True  # unannotated (`Any`), or an object called through its `__call__`
    return any(_may_hold_rebinding(item.ret_type) for item in signature.items)


_TENSOR_MRO = frozenset({_names.TENSOR, _names.TENSOR_BASE, _names.OBJECT})
"""The classes a tensor is an instance of: what their `__init__` declares as `self` can be a tensor."""


def _may_hold_rebinding(declared: Type) -> bool:
    """Whether a declared result can be, with its type variables bound, what `_rebinds` accepts."""
    p = get_proper_type(declared)
    if isinstance(p, Instance):
        return _is_tensor(p)
    if isinstance(p, (UnionType, TupleType)):
        return any(_may_hold_rebinding(item) for item in p.items)
    return not isinstance(
        p, (NoneType, LiteralType, UninhabitedType, CallableType, Overloaded, TypedDictType, TypeType)
    )


def _settle(api: TypeChecker, body: Body, target: Target, result: Type, *, join: bool = True) -> Type:
    """Rebind `target` to `result`; returns the value to give (`result`, or of unknown rank where a
    declared subclass of unknown rank would otherwise lose that: `_subclass_of_unknown_rank`)."""
    if not isinstance(target, NameExpr):
        items = _unpacked(result, len(target.items))
        if items is None:
            return result
        given = [
            _settle(api, body, t, item, join=join) if isinstance(t, (NameExpr, TupleExpr, ListExpr)) else item
            for t, item in zip(target.items, items.items)
        ]
        return items.copy_modified(items=given) if given != items.items else result
    var = target.node
    if not isinstance(var, Var):
        return result
    if isinstance(get_proper_type(result), AnyType):  # torch's `Any` (a module tyr knows nothing of)
        _forget_shapes(api, target, var)
        if join:
            _join_paths(api, body, target, result)
        return result
    if not _is_tensor(result):
        return result
    value = get_proper_type(result)
    assert isinstance(value, Instance)
    if _subclass_of_unknown_rank(_members(var.type), value):
        result = _unknown_rank(api, value)
    shared = _join_paths(api, body, target, result) if join else None
    # A read after the paths meet is narrowed from the declared type by what they share.
    loose = _loosened(api, var, shared if shared is not None and _is_tensor(shared) else result)
    if loose is not None and id(var) in body.unhooked:
        # A value assigned to the name elsewhere is typed with no hook (`w = self.weight`, `wav = item`,
        # a loop's index): mypy would meet the tensors of the declared type with it, and a tensor of
        # unknown rank would read as of their rank, and as this value's sizes on the next pass of a
        # loop.  Declared of unknown rank, the name reads as what was assigned.
        loose = _tensors_replaced(_members(loose), _unknown_rank(api, _of_declared_class(_members(var.type), value)))
    # Where the value is a proper subtype of the rewritten type, mypy does not widen that by
    # the value and checks the assignment against the name's type before the rewrite: rewrite
    # only where that check holds.
    # An assignment in a branch that then jumps (`if c: y = y.reshape(-1); return f(y)`) leaves the
    # declaration alone: the paths that go on read it (a parameter's has no other value), and they
    # never see this value.
    if loose is not None and id(target) not in body.jumping_aside and (
        not is_proper_subtype(result, loose)
        or var.type is not None and is_subtype(result, api.expr_checker.narrow_type_from_binder(target, var.type))
    ):
        _declare(api, target, var, loose)
    # `q = k` later: mypy narrows `q`'s declared type by `k`'s value, which would meet the
    # members of `q`'s that this value overlaps in the same way; loosen those now.
    for alias in body.aliases.get(id(var), []):
        other = alias.node
        if isinstance(other, Var):
            loose = _loosened(api, other, result)
            if loose is not None:
                _declare(api, alias, other, loose)
    return result


def _unpacked(result: Type, count: int) -> TupleType | None:
    """A value unpacked into `count` targets, as a tuple of that many items: a tuple of that length,
    or a tuple of any length (`x.chunk(2)` of a dim whose size is a symbol), which unpacks into
    `count` items of its one type."""
    p = get_proper_type(result)
    if isinstance(p, TupleType):
        return p if len(p.items) == count else None
    item = _any_length_item(p)
    return TupleType([item] * count, p) if item is not None and isinstance(p, Instance) else None


def _rebind_declared(
    api: TypeChecker, body: Body, target: Target, result: Type, *, whole: bool, untyped: bool = False
) -> Type:
    """Without `allow_redefinition`: what a value rebinding a tensor name is typed as (mypy's default).

    There a name keeps the type its first assignment (or its annotation) declared, and mypy checks
    each later assignment against it, before any hook runs.  So:

    * the first assignment of a local tensor name that is assigned again declares it `Any`, and
      tyr narrows the name to the value's exact shape itself: later assignments of any shape
      fit, and each read gives what was last assigned (where two paths with different shapes
      meet, mypy makes the name `Any`: unknown, never a union with a stale shape).  In a
      function without shapes it is declared as torch's types declare it: a tensor, or `Any`
      for a callee torch leaves untyped (`untyped`: `y = torch.fft.rfft(x)`, later `y = y.numpy()`);
    * a later value of a shape the declared type does not admit, for a local name first assigned
      from another name (`h = x`, no hook runs), is `Any`: no error that torch's own types would
      not give, and no read of the old shape after it (mypy narrows the name to `Any`);
    * a parameter keeps its annotation for good: a value of another shape is left to mypy's
      assignment check, with a note that `allow_redefinition` rebinds parameters.  (Its reads
      would give the annotation's shape even after an accepted `Any`.)
    """
    if not isinstance(target, NameExpr):
        items = _unpacked(result, len(target.items))
        if items is None:
            return result
        retyped = [
            _rebind_declared(api, body, t, item, whole=whole, untyped=untyped)
            if isinstance(t, (NameExpr, TupleExpr, ListExpr))
            else item
            for t, item in zip(target.items, items.items)
        ]
        return items.copy_modified(items=retyped) if retyped != items.items else result
    var = target.node
    if not isinstance(var, Var) or var.is_final or isinstance(var.type, PartialType):
        return result
    declared = get_proper_type(var.type) if var.type is not None else None
    tensors = [t for t in _members(declared) if _is_tensor(t)]
    value = get_proper_type(result)
    if isinstance(value, AnyType):  # torch's `Any`: the paths that skip this forget the old shape too
        # (in a function without shapes the name is declared a plain tensor, as torch's types declare
        # it, and mypy joins the paths itself, as without tyr: open_clip's `pooled`; unless it was
        # declared with a shape where no hook ran, `m = eye` after `eye = torch.eye(4)`)
        if whole and (body.shaped or any(_has_shape(t) for t in tensors)):
            _join_paths(api, body, target, value)
        if var.is_argument and any(_has_shape(t) for t in tensors):
            _note_parameter(api, target)
        return result
    if _is_size(value) or _is_int(value):
        return _size_declared(api, body, target, var, value)
    if isinstance(value, TupleType) and value.items and all(map(_is_size_or_int, value.items)):
        return _shape_declared(api, body, target, value)
    if not _is_tensor(value):
        return result
    assert isinstance(value, Instance)
    _loosen_aliases(api, body, var, value)
    if whole:
        _join_paths(api, body, target, value)
    if target.is_inferred_def:
        if whole and body.first_of_several(target):
            api.binder.put(target, value)
            if untyped and not body.shaped:
                return AnyType(TypeOfAny.special_form)
            if not body.shaped or _assigned_what_is_no_tensor(body, var):
                return _unknown_rank(api, value)
            # Declared `Any`, not the tensor of unknown shape: mypy narrows a declared type by
            # meeting it with the value, and that meet gives back `Tensor[*tuple[Any, ...]]` for
            # a value such as `Tensor[Any, Any]` or `Tensor[()]`, losing its rank.
            return AnyType(TypeOfAny.special_form)
        return result
    if declared is None or not tensors:
        return result
    if _partly_unknown(value) and var.is_inferred and not var.is_argument and body.assigned.get(id(var), 0) > 1:
        if any(_has_shape(t) and t != value for t in tensors):
            # A local first assigned where no hook ran (`h = x`): its declared shape would come back
            # on each read, met with this value's unknown sizes.  From here on it is declared `Any`.
            # (mypy checks this assignment against the type declared before: a value it does not
            # admit is `Any`, as below.)
            _declare(api, target, var, AnyType(TypeOfAny.special_form))
            return result if is_subtype(value, declared) else AnyType(TypeOfAny.special_form)
    if is_subtype(value, declared):
        return result
    if var.is_argument:
        if any(_has_shape(t) for t in tensors):
            _note_parameter(api, target)
        return result
    if whole:
        _join_paths(api, body, target, AnyType(TypeOfAny.special_form))
    return AnyType(TypeOfAny.special_form)


def _loosen_aliases(api: TypeChecker, body: Body, var: Var, value: Instance) -> None:
    """Without `allow_redefinition`: a local assigned this name later (`cur = idx_next`, where no hook runs),
    first assigned another (`cur = idx`), and declared a shape this value does not fit, is declared `Any`,
    as torch's types would let the later assignment be."""
    for alias in body.aliases.get(id(var), []):
        other = alias.node
        if not isinstance(other, Var) or other.is_argument or not other.is_inferred or other.type is None:
            continue
        if body.assigned.get(id(other), 0) < 2 or is_subtype(value, other.type):
            continue
        if any(_has_shape(t) for t in _members(get_proper_type(other.type)) if _is_tensor(t)):
            _declare(api, alias, other, AnyType(TypeOfAny.special_form))


def _size_declared(api: TypeChecker, body: Body, target: NameExpr, var: Var, value: ProperType) -> Type:
    """A size (`Literal[4]`, `Dim[B]`) first assigned to a local that is assigned again: declared an
    `int`, as torch's types declare it, and read as the size.  Declared as the size itself, the
    name would refuse the ints it is given next (`t = t + pad`, `h += 1`).  A plain `int` (a size
    not known) rebinds a local first declared a size where no hook ran (`ch = base`, then
    `ch = base * m` with `m: int`)."""
    if not target.is_inferred_def:
        declared = get_proper_type(var.type) if var.type is not None else None
        if declared is None or not _is_size(declared) or is_subtype(value, declared):
            return value
        if not var.is_inferred or var.is_argument:
            return value  # the user's own `Dim[D]`: mypy's check stands
        # First assigned where no hook ran (`n = d`), then another size (`n = n * 2`): declared an `int`
        # from here on, and the paths that skip this hold an `int`, not the first size.  mypy holds this
        # value to the old declaration: given as `Any`, the name is unknown until assigned again.
        _join_paths(api, body, target, api.named_type(_names.INT))
        _declare(api, target, var, api.named_type(_names.INT))
        return AnyType(TypeOfAny.special_form)
    if body.assigned.get(id(var), 0) + body.augmented.get(id(var), 0) < 2:
        return value
    api.binder.put(target, value)
    return api.named_type(_names.INT)


def _shape_declared(api: TypeChecker, body: Body, target: NameExpr, value: TupleType) -> Type:
    """A shape (`s = a.shape`, `a.size()`) first assigned to a local that is assigned again: declared as
    torch types it (`torch.Size`), read as the sizes.  Declared as the sizes themselves, the name
    would refuse the next shape (`s = b.shape`)."""
    if not body.first_of_several(target):
        return value
    api.binder.put(target, value)
    return value.partial_fallback


def _is_size_or_int(item: Type) -> bool:
    p = get_proper_type(item)
    return _is_size(p) or isinstance(p, Instance) and p.type.fullname == _names.INT


def _assigned_what_is_no_tensor(body: Body, var: Var) -> bool:
    """Whether the body assigns `var` another variable that may hold what is no tensor (`h = x`
    with `x: Tensor | dict`).  No hook runs for that assignment: declared `Any`, the name would
    take it silently and the mistake would show where the name is read.  Declared a tensor, as
    torch's types declare it, mypy reports it on that line, as without tyr."""
    for source in body.sources.get(id(var), []):
        declared = get_proper_type(source.type) if source.type is not None else None
        if declared is None or isinstance(declared, (AnyType, PartialType)):
            continue
        if any(not _is_tensor(m) for m in _members(declared)):
            return True
    return False


def _is_tensor_declaration(declared: Type | None) -> bool:
    """A declared type with a tensor among its members (a partial type `None` is none)."""
    if declared is None or isinstance(declared, PartialType):
        return False
    return any(_is_tensor(t) for t in _members(declared))


def _has_shape(tensor: Type) -> bool:
    """A tensor type that says something about its shape (not the bare `Tensor` of unannotated code)."""
    p = get_proper_type(tensor)
    if not isinstance(p, Instance):
        return False
    if len(p.args) == 1 and isinstance(p.args[0], UnpackType):
        rest = get_proper_type(p.args[0].type)
        return not (isinstance(rest, Instance) and all(isinstance(get_proper_type(a), AnyType) for a in rest.args))
    return True


def _note_parameter(api: TypeChecker, target: NameExpr) -> None:
    api.note(_errors.PARAMETER_REBOUND.format(name=target.name.rstrip("'")), target, code=_errors.SHAPE)


def _join_paths(api: TypeChecker, body: Body, target: NameExpr, result: Type) -> Type | None:
    """Where the name is rebound inside a branch or a loop to a value of another shape (or of unknown
    sizes), the paths that do not run the assignment (no iteration, the branch not taken) join it
    when they meet: their shape for the name becomes what it shares with the new value
    (`Tensor[B, 16]` and `Tensor[B, 32]` share `Tensor[B, Any]`).  So after `for layer in layers:
    x = layer(x)` the shape of `x` is no union of the old and the new that a later check fails on
    (§6): the checker cannot know that the loop runs, or which branch is taken.  Returns the
    shape written into those paths, if any.
    """
    key = literal_hash(target)
    if key is None:
        return None
    var = target.node
    # Without `allow_redefinition` mypy meets each read with the declared type: a shared shape
    # met with a declared one of other sizes gives no valid tensor, so those paths forget all:
    # `Any`, or where the declared type also admits what is no tensor (`Tensor | dict`), which
    # a read met with `Any` would bring back, the tensor of unknown shape.
    declared = get_proper_type(var.type) if isinstance(var, Var) and var.type is not None else None
    forget_all = not api.options.allow_redefinition and not isinstance(declared, AnyType)
    _keep_until_assigned(api, key)
    written: Type | None = None
    # A path that jumps right after the assignment does not meet the others at the end of its block,
    # and the code the others run (the `else` of that `if`, the rest of a loop's body) never sees it.
    # (Where a `break` or `continue` lands, the paths do meet: with both shapes, which is what they hold.)
    # A loop's index is assigned in the loop's frames, which the loop has not opened yet: the path that
    # skips the loop is the frame the hook runs in.
    met = [] if id(target) in body.jumping else api.binder.frames if id(target) in body.indexes else api.binder.frames[:-1]
    for frame in met:
        current = frame.types.get(key)
        if current is not None and not _same_shape(current.type, result):
            written = _forgotten(api, current.type, declared) if forget_all else _shared(current.type, result, api)
            frame.types[key] = CurrentType(written, current.from_assignment)
    # There a name's first value is its declared type, in no frame.
    if written is None and forget_all and declared is not None and len(api.binder.frames) > 1:
        if _is_tensor_declaration(declared) and not _same_shape(declared, result):
            written = _forgotten(api, declared, declared)
            api.binder.frames[0].types[key] = CurrentType(written, True)
            # mypy reads the declaration of every name in the outer frame (a nested `def` does)
            api.binder.declarations.setdefault(key, declared)
    return written


def _keep_until_assigned(api: TypeChecker, key: Key) -> None:
    """Until mypy assigns the value, a read of the name in the assignment's own path gives what it
    gave before.  The value may be typed again: with `allow_redefinition`, mypy types the value of
    a parameter's assignment a second time when the first gave errors (`x = x + m` in a branch), and
    keeps the second try if it gives none.  Read from the paths rewritten below, `x` would be of
    unknown shape there, and the error would be lost."""
    innermost = api.binder.frames[-1]
    if key in innermost.types or not has_new_errors(api):
        return  # (only a value with errors is typed again: elsewhere the paths stay as mypy left them)
    for frame in reversed(api.binder.frames[:-1]):
        current = frame.types.get(key)
        if current is not None:
            innermost.types[key] = current
            return


def _same_shape(current: Type, result: Type) -> bool:
    """Whether a path's type for a name is already what the value assigned gives (nothing to join)."""
    c, r = get_proper_type(current), get_proper_type(result)
    return c == r and not _partly_unknown(r) and not isinstance(r, AnyType)


def _forgotten(api: TypeChecker, current: Type, declared: ProperType | None) -> Type:
    """What a path that skips a rebinding knows of the name, under mypy's defaults (`_join_paths`)."""
    if declared is not None and _is_tensor(declared) and not _has_shape(declared):
        # A name torch's types declare (`x: torch.Tensor`): that type, with no shape to go stale.
        # (`Any` here would change the name's type before a loop around the rebinding at each
        # pass, and mypy would check the loop again, up to 4 times.)
        return declared
    if all(_is_tensor(m) or isinstance(get_proper_type(m), NoneType) for m in _members(declared)):
        return AnyType(TypeOfAny.special_form)
    if all(_is_size(get_proper_type(m)) for m in _members(declared)):
        return api.named_type(_names.INT)  # a size: torch's `int`
    return UnionType.make_union(
        [_unknown_rank(api, t) if isinstance(t, Instance) and _is_tensor(t) else t for t in map(get_proper_type, _members(current))]
    )


def _shared(old: Type, new: Type, api: TypeChecker) -> Type:
    """What a tensor type `old` shares with `new`: the sizes both have, the others unknown."""
    p, n = get_proper_type(old), get_proper_type(new)
    if isinstance(p, UnionType):
        return UnionType.make_union([_shared(item, new, api) for item in p.items])
    if not (isinstance(p, Instance) and _is_tensor(p)):
        return old
    if not (isinstance(n, Instance) and _is_tensor(n)):
        return _unknown_rank(api, p)
    # Of the class both values are: a `Parameter` on one path and a `Tensor` on the other are a
    # `Tensor` (a `Parameter` type would refuse the plain tensor; its list would be no list of tensors).
    base = _common_class(p, n)
    if len(p.args) != len(n.args) or any(isinstance(a, UnpackType) for a in (*p.args, *n.args)):
        return _unknown_rank(api, base)
    return base.copy_modified(args=[a if a == b else AnyType(TypeOfAny.special_form) for a, b in zip(p.args, n.args)])


def _as_torch_tensor(tensor: Instance) -> Instance:
    """A tensor type as torch's own `Tensor` of the same shape (its class's base in every build)."""
    base = next((info for info in tensor.type.mro if info.fullname == _names.TENSOR), None)
    return Instance(base, list(tensor.args)) if base is not None and base is not tensor.type else tensor


def _of_declared_class(declared: list[Type], value: Instance) -> Instance:
    """`value`, as torch's `Tensor` where a tensor the name is declared is of another class: a name that
    held a `Tensor` and is rebound to a `Parameter` (on one path; `w = rearrange(self.w, ...)`, as
    einops types it) is declared a `Tensor`, which the other path's value is too."""
    classes = {p.type for p in map(get_proper_type, declared) if isinstance(p, Instance) and _is_tensor(p)}
    return value if classes <= {value.type} else _as_torch_tensor(value)


def _common_class(old: Instance, new: Instance) -> Instance:
    """Of two tensor types, the one whose class the other's derives from (torch's `Tensor` for two
    unrelated subclasses)."""
    if new.type.has_base(old.type.fullname):
        return old
    if old.type.has_base(new.type.fullname):
        return new
    return _as_torch_tensor(old)


def _forget_shapes(api: TypeChecker, target: NameExpr, var: Var) -> None:
    """`x = layer(x)` with a result typed `Any`: `x` is a tensor of unknown shape from there on, never
    a union of its old shapes and `Any` that fails a later check."""
    if var.type is None or var.is_final or not (var.is_inferred or var.is_argument):
        return
    items = _members(var.type)
    tensors = [t for t in map(get_proper_type, items) if isinstance(t, Instance) and _is_tensor(t)]
    if not tensors:
        return
    bare = _unknown_rank(api, tensors[0])
    if all(t == bare for t in tensors):
        return
    _declare(api, target, var, _tensors_replaced(items, bare))


def _unknown_rank(api: TypeChecker, tensor: Instance) -> Instance:
    """The tensor of unknown shape, of `tensor`'s class."""
    anything = AnyType(TypeOfAny.special_form)
    return tensor.copy_modified(args=[UnpackType(api.named_generic_type(_names.TUPLE, [anything]))])


def _loosened(api: TypeChecker, var: Var, result: Type) -> Type | None:
    """The declared type `var` needs once `result` is assigned to it; None when it needs no change.

    A partly unknown `result` that would meet a tensor member of the declared type replaces
    all its tensor members by the tensor of `result`'s rank with every size unknown (of
    unknown rank, if `result`'s is unknown): narrowed by any value of that rank, it gives
    the value exactly.  Such a member, met with a value of another rank, would give a
    tensor of no valid shape: a result of another rank replaces it too.

    Only a variable whose declared type mypy inferred from what was assigned (or a parameter's)
    is rewritten: a declaration the user wrote stands.
    """
    if var.type is None or var.is_final or not (var.is_inferred or var.is_argument):
        return None
    items = _members(var.type)
    tensors = [item for item in items if _is_tensor(item)]
    stale = _partly_unknown(result) and any(_stale(item, result) for item in tensors)
    loose = _of_declared_class(tensors, _unknown_sizes(api, result))
    if not stale and not any(_is_unknown_sizes(item) and item != loose for item in tensors):
        return None
    if _has_variadic(result):
        # mypy narrows a declared tensor of unknown rank by `Tensor[*Bs, Any]` to a union with
        # `Tensor[*tuple[Never, ...]]`, which fails a later check: such a name is declared `Any`
        return AnyType(TypeOfAny.special_form)
    return _tensors_replaced(items, loose)


def _tensors_replaced(declared: list[Type], tensor: Type) -> Type:
    """A declared type's members with its tensors replaced by one `tensor`."""
    return UnionType.make_union([*(item for item in declared if not _is_tensor(item)), tensor])


def _subclass_of_unknown_rank(declared: list[Type], value: Instance) -> bool:
    """A name declared a `Parameter` of unknown rank (`w = self.weight`) that a `Tensor` of known rank
    rebinds (`w = w.view(r, i, o)`).  mypy widens the declaration to their union, where the
    `Parameter` is dropped as a subtype of `Tensor[Any, Any, Any]`, and the paths that skip the
    assignment would read as of that rank.  Such a value is given as of unknown rank."""
    return _has_rank(value) and any(
        _is_tensor(item) and isinstance(p := get_proper_type(item), Instance) and p.type != value.type and not _has_rank(p)
        for item in declared
    )


def _has_variadic(result: Type) -> bool:
    """A tensor whose shape holds a `TypeVarTuple` (`Tensor[*Bs, Any]`)."""
    p = get_proper_type(result)
    return isinstance(p, Instance) and any(
        isinstance(arg, UnpackType) and isinstance(get_proper_type(arg.type), TypeVarTupleType) for arg in p.args
    )


def _declare(api: TypeChecker, name: NameExpr, var: Var, declared: Type) -> None:
    var.type = declared
    key = literal_hash(name)
    if key is not None and key in api.binder.declarations:
        api.binder.declarations[key] = declared


def _unknown_sizes(api: TypeChecker, result: Type) -> Instance:
    """The tensor of `result`'s rank with every size unknown (`Tensor[Any, Any, Any]`), or of
    unknown rank where `result`'s is."""
    p = get_proper_type(result)
    assert isinstance(p, Instance)
    if any(isinstance(arg, UnpackType) for arg in p.args):
        return _unknown_rank(api, p)
    return p.copy_modified(args=[AnyType(TypeOfAny.special_form) for _ in p.args])


def _has_rank(tensor: Instance) -> bool:
    """A tensor type of a known number of dims (a `TypeVarTuple`'s count is known to the caller)."""
    return not any(
        isinstance(arg, UnpackType) and not isinstance(get_proper_type(arg.type), TypeVarTupleType) for arg in tensor.args
    )


def _is_unknown_sizes(item: Type) -> bool:
    """A tensor of known rank whose sizes are all unknown: what `_loosened` declares."""
    p = get_proper_type(item)
    return (
        isinstance(p, Instance)
        and bool(p.args)
        and all(not isinstance(a, UnpackType) and isinstance(get_proper_type(a), AnyType) for a in p.args)
    )


def _members(declared: Type | None) -> list[Type]:
    """The members of a union type, or the type itself; none for no type."""
    if declared is None:
        return []
    p = get_proper_type(declared)
    return list(p.items) if isinstance(p, UnionType) else [p]


def _is_tensor(item: Type) -> bool:
    """A tensor whose type holds its shape: torch's `Tensor`, or a subclass generic in the shape too
    (`nn.Parameter`, `nn.Buffer`)."""
    p = get_proper_type(item)
    return isinstance(p, Instance) and shape_class(p.type)


def _stale(item: Type, result: Type) -> bool:
    """A tensor member of a declared type that a read after assigning `result` would wrongly keep.

    Narrowing keeps a member the new value could be (it is assignable to the member: its
    unknown sizes fit anything); a member that merely overlaps (`Tensor[Any, 5, 6]` against
    `Tensor[Any, 5, K]`) narrows away by itself.
    """
    p = get_proper_type(item)
    if not _is_tensor(p):
        return False
    return p != get_proper_type(result) and is_subtype(result, p)


def _partly_unknown(result: Type) -> bool:
    """A tensor type with an unknown size or an unknown number of dims."""
    t = get_proper_type(result)
    if not (isinstance(t, Instance) and _is_tensor(t)):
        return False
    for arg in t.args:
        if isinstance(arg, UnpackType):
            if not isinstance(get_proper_type(arg.type), TypeVarTupleType):
                return True
        elif isinstance(get_proper_type(arg), AnyType):
            return True
    return False
