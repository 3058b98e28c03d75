"""Reading a call's arguments: shapes of tensors, sizes, int and bool constants, by parameter name.

torch's signatures are overloaded (`view(*size)`, `view(size)`); mypy hands the
hook the arguments grouped by the formal parameters of the overload that matched,
so arguments are looked up by parameter name, and a `*size` parameter given one
tuple reads the tuple's items.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple, TypeVar

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    ArgKind,
    CallExpr,
    Context,
    Decorator,
    Expression,
    FloatExpr,
    FuncDef,
    GeneratorExpr,
    IntExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    NameExpr,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    StarExpr,
    StrExpr,
    TupleExpr,
    UnaryExpr,
    Var,
)
from mypy.plugin import CheckerPluginInterface, FunctionContext, MethodContext
from mypy.subtypes import is_subtype
from mypy.types import (
    FunctionLike,
    Instance,
    LiteralType,
    NoneType,
    ProperType,
    TupleType,
    Type,
    UnionType,
    get_proper_type,
)

from tyr._symbolic import const
from tyr.mypy_plugin import _errors, _guards, _names
from tyr.mypy_plugin._trials import fail_call
from tyr.mypy_plugin._types import NotATensor, Scope
from tyr.mypy_plugin._types import NotKnown as NotKnown  # what the hooks raise, with the calls they read
from tyr.shape_rules import MaybeShape, ShapeRuleError, Size

MISSING = object()
"""An argument that was not given (the rule's default applies)."""

_D = TypeVar("_D")
_V = TypeVar("_V")


class Actual(NamedTuple):  # a named tuple: a call builds one per argument, a frozen dataclass costs more
    type: Type
    expr: Expression
    kind: ArgKind
    param: str = ""  # the formal parameter it is given for ("" for an item of a list argument)


class Call:
    """One call being checked: its arguments by parameter name, and how to report and build results."""

    def __init__(self, ctx: FunctionContext | MethodContext, scope: Scope, op: str) -> None:
        self.ctx = ctx
        self.scope = scope
        self.op = op
        self.api: CheckerPluginInterface = ctx.api
        self.context: Context = ctx.context
        self._formals: dict[str, list[Actual]] = {}
        for index, name in enumerate(ctx.callee_arg_names):
            if name is None:
                name = f"#{index}"
            actuals: list[Actual] = []
            for t, e, k in zip(ctx.arg_types[index], ctx.args[index], ctx.arg_kinds[index]):
                # mypy maps a starred tuple (`*x.shape`) onto a `*size` parameter once per item:
                # it is one argument, whose items `sizes_arg` reads.
                if k == ARG_STAR and actuals and actuals[-1].expr is e:
                    continue
                actuals.append(Actual(t, e, k, name))
            self._formals[name] = actuals

    @property
    def default(self) -> Type:
        return self.ctx.default_return_type

    def has_unmatched(self, callee: str) -> bool:
        """Whether this call of `callee` passes an argument that no parameter of the signature takes
        (mypy reports it): `torch.cat(xs, axis=1)`, where torch reads numpy's `axis` as `dim`.  The
        rule cannot tell what it means, so the result is unknown.  (A hook mypy runs for another
        call in the same expression, `__iter__` for `q, k = x.permute(...)`, is not this call.)"""
        call = self.context
        if not isinstance(call, CallExpr) or not isinstance(call.callee, (NameExpr, MemberExpr)):
            return False
        if call.callee.name != callee:
            return False
        matched = {id(a.expr) for actuals in self._formals.values() for a in actuals}
        return any(id(arg) not in matched and not self._empty_star(arg, kind) for arg, kind in zip(call.args, call.arg_kinds))

    def _empty_star(self, arg: Expression, kind: ArgKind) -> bool:
        """`*x.shape[:-1]` of a 1-d `x`: a starred empty tuple, which mypy maps to no parameter."""
        t = get_proper_type(self.type_of(arg)) if kind == ARG_STAR else None
        return isinstance(t, TupleType) and not t.items

    # -- arguments ----------------------------------------------------------------------------

    def actuals(self, *names: str) -> list[Actual]:
        """The arguments given for the first of `names` that the matched signature has."""
        for name in names:
            found = self._formals.get(name)
            if found:
                return found
        return []

    def given(self, *names: str) -> bool:
        return bool(self.actuals(*names))

    def positional(self) -> list[Actual]:
        """All arguments in the order of the signature's parameters."""
        return [a for actuals in self._formals.values() for a in actuals]

    def drop(self, *names: str) -> None:
        """Forget the first of `names` that was given (a function's tensor argument, read as a receiver)."""
        for name in names:
            if self._formals.get(name):
                del self._formals[name]
                return

    def is_tensor(self, actual: Actual) -> bool:
        return _is_tensor(get_proper_type(actual.type))

    def is_none(self, actual: Actual) -> bool:
        if isinstance(actual.expr, NameExpr) and actual.expr.fullname == "builtins.None":
            return True
        return isinstance(get_proper_type(actual.type), NoneType)

    # -- values -------------------------------------------------------------------------------

    def type_of(self, expr: Expression) -> Type | None:
        if isinstance(self.api, TypeChecker):
            return self.api.lookup_type_or_none(expr)
        return None

    def int_arg(self, *names: str, default: object = MISSING) -> int | object:
        """An int constant argument; `default` when not given; raises NotKnown when not a constant."""
        return self._constant_arg(names, default, self.int_of)

    def optional_int_arg(self, *names: str) -> int | None:
        """An int constant argument that may be None or not given (both None); raises NotKnown when not a constant."""
        actuals = self.actuals(*names)
        if not actuals or self.is_none(actuals[0]):
            return None
        value = self.int_of(actuals[0])
        if value is None:
            raise NotKnown
        return value

    def bool_arg(self, *names: str, default: bool) -> bool:
        return self._constant_arg(names, default, self.bool_of)

    def str_arg(self, *names: str) -> str | None:
        actuals = self.actuals(*names)
        return self.str_of(actuals[0]) if actuals else None

    def str_option(self, name: str, default: str) -> str:
        """A string option (`reduction`, `indexing`); `default` when not given; raises NotKnown when it is
        given a string not known here (`reduction=self.reduction` may be "none", which keeps the shape)."""
        return self._constant_arg((name,), default, self.str_of)

    def _constant_arg(self, names: tuple[str, ...], default: _D, read: Callable[[Actual], _V | None]) -> _V | _D:
        """The constant value of an argument, read by `read`; `default` when not given; NotKnown otherwise."""
        actuals = self.actuals(*names)
        if not actuals:
            return default
        value = read(actuals[0])
        if value is None:
            raise NotKnown
        return value

    def str_of(self, actual: Actual) -> str | None:
        t = get_proper_type(actual.type)
        if isinstance(t, Instance) and t.last_known_value is not None:
            t = t.last_known_value
        if isinstance(t, LiteralType) and isinstance(t.value, str):
            return t.value
        if isinstance(actual.expr, StrExpr):
            return actual.expr.value
        return None

    def int_of(self, actual: Actual) -> int | None:
        size = self.size_of(actual)
        return size.const_value if size is not None else None

    def bool_of(self, actual: Actual) -> bool | None:
        t = get_proper_type(actual.type)
        if isinstance(t, Instance) and t.last_known_value is not None:
            t = t.last_known_value
        if isinstance(t, LiteralType) and isinstance(t.value, bool):
            return t.value
        expr = actual.expr
        if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
            return expr.fullname == "builtins.True"
        return None

    def size_of(self, actual: Actual) -> Size:
        """The size an int argument stands for: a literal, a `Dim`; None when unknown."""
        if actual.kind in (ARG_STAR, ARG_STAR2):
            return None
        return self._size(actual.type, actual.expr)

    def _size(self, typ: Type | None, expr: Expression) -> Size:
        """The size an int expression stands for: from its type (a literal, a `Dim`), or its text (`-1`)."""
        size = self.scope.size_of(typ) if typ is not None else None
        return size if size is not None else literal_int(expr)

    def sizes_arg(self, *names: str) -> list[Size] | None:
        """Sizes given as `*size` or as one sequence (`view(2, 3)`, `view((2, 3))`, `zeros(x.shape)`).

        None when their number is unknown (`view(*sizes)` with a list).
        """
        actuals = self.actuals(*names)
        if len(actuals) == 1 and actuals[0].kind not in (ARG_STAR, ARG_STAR2):
            items = self.sequence_of(actuals[0])
            if items is not None:
                return items
            if self.size_of(actuals[0]) is None and not is_int_like(actuals[0].type):
                return None
        out: list[Size] = []
        for actual in actuals:
            if actual.kind == ARG_STAR:
                items = self.sequence_of(actual)
                if items is None:
                    return None
                out.extend(items)
            else:
                out.append(self.size_of(actual))
        return out

    def sequence_of(self, actual: Actual) -> list[Size] | None:
        """The sizes in a tuple or list argument (`(2, 3)`, `x.shape`, `[b, t]`); None if not a fixed sequence."""
        t = get_proper_type(actual.type)
        if isinstance(t, TupleType):
            return None if _declared_one_int(actual.expr, t) else [self.scope.size_of(item) for item in t.items]
        return self._sequence(actual.expr)

    def _sequence(self, expr: Expression) -> list[Size] | None:
        """The sizes of a sequence written out: a display (`[b, t]`, `(2, *x.shape)`), or displays
        joined and repeated (`[1] * 2 + [n - 2]`, `[-1] * x.dim()`) with a count that is a constant."""
        t = get_proper_type(self.type_of(expr)) if not isinstance(expr, (TupleExpr, ListExpr)) else None
        if isinstance(t, TupleType):
            return None if _declared_one_int(expr, t) else [self.scope.size_of(item) for item in t.items]
        if isinstance(expr, (TupleExpr, ListExpr)):
            out: list[Size] = []
            for item in expr.items:
                if isinstance(item, StarExpr):
                    inner = self._sequence(item.expr)
                    if inner is None:
                        return None
                    out.extend(inner)
                    continue
                out.append(self._size(self.type_of(item), item))
            return out
        if isinstance(expr, OpExpr) and expr.op == "+":
            left, right = self._sequence(expr.left), self._sequence(expr.right)
            return left + right if left is not None and right is not None else None
        if isinstance(expr, OpExpr) and expr.op == "*":
            for items, count in ((expr.left, expr.right), (expr.right, expr.left)):
                if isinstance(items, (TupleExpr, ListExpr, OpExpr)):
                    repeated, times = self._sequence(items), self._constant(count)
                    if repeated is not None and times is not None:
                        return repeated * max(times, 0)
            return None
        return None

    def _constant(self, expr: Expression) -> int | None:
        """An int known to be one value (`2`, or a size that is a constant, `x.dim()`)."""
        size = self._size(self.type_of(expr), expr)
        return size.const_value if size is not None else None

    def ints_of(self, actual: Actual) -> list[int] | None:
        items = self.sequence_of(actual)
        if items is None:
            return None
        out = []
        for item in items:
            value = item.const_value if item is not None else None
            if value is None:
                return None
            out.append(value)
        return out

    def float_of(self, actual: Actual) -> float | None:
        expr = actual.expr
        if isinstance(expr, FloatExpr):
            return expr.value
        value = self.int_of(actual)
        return float(value) if value is not None else None

    def ints_arg(self, *names: str) -> list[int] | None:
        """Int constants given as `*dims` or one sequence (`permute(0, 2, 1)`, `sum(dim=(1, 2))`)."""
        sizes = self.sizes_arg(*names)
        if sizes is None:
            return None
        out = []
        for size in sizes:
            value = size.const_value if size is not None else None
            if value is None:
                return None
            out.append(value)
        return out

    def dims_arg(self, *names: str, default: object = None) -> int | tuple[int, ...] | None | object:
        """A `dim` argument: an int, a tuple of ints, None (all dims); `default` when not given."""
        actuals = self.actuals(*names)
        if not actuals:
            return default
        if self.is_none(actuals[0]):
            return None
        value = self.int_of(actuals[0])
        if value is not None:
            return value
        items = self.sequence_of(actuals[0])
        if items is not None and all(i is not None and i.const_value is not None for i in items):
            return tuple(i.const_value for i in items if i is not None and i.const_value is not None)
        raise NotKnown

    # -- tensors ------------------------------------------------------------------------------

    def shape_of(self, actual: Actual) -> MaybeShape:
        """The shape of a tensor argument; a Python scalar is a 0-d tensor; raises NotKnown otherwise."""
        t = get_proper_type(actual.type)
        try:
            return self.scope.tensor_shape(t)
        except NotATensor:
            pass
        if _is_scalar(t) and self._admits_scalar(actual):
            return ()
        raise NotKnown

    def _admits_scalar(self, actual: Actual) -> bool:
        """Whether the parameter takes a Python number, read as a 0-d tensor (`torch.add(2, x)`, `x * 0.5`).

        A parameter declared a tensor only (`torch.square(input)`, `F.pad(input)`) does not: mypy
        already reports the number (often a name mypy typed from its first value, `k = 0`, that
        the code rebinds to a tensor), and its shape is unknown.  A callee whose declaration is
        not at hand (an operator) is taken to.
        """
        signature = get_proper_type(_declared_signature(self.ctx)) if actual.param else None
        if not isinstance(signature, FunctionLike):
            return True
        formals = [
            item.arg_types[item.arg_names.index(actual.param)] for item in signature.items if actual.param in item.arg_names
        ]
        return not formals or any(is_subtype(actual.type, formal) for formal in formals)

    def tensor_arg(self, *names: str) -> MaybeShape:
        actuals = self.actuals(*names)
        if not actuals:
            raise NotKnown
        return self.shape_of(actuals[0])

    def tensor_list_arg(self, *names: str) -> list[MaybeShape] | None:
        """The shapes in a tuple or list of tensors; None when their number is unknown."""
        actuals = self.actuals(*names)
        if len(actuals) != 1:
            return None
        return self.sequence_shapes(actuals[0])

    def sequence_shapes(self, actual: Actual) -> list[MaybeShape] | None:
        """The shapes of a sequence of tensors.  An item that is no tensor (a float in `torch.cat`'s list,
        which mypy reports itself) is no 0-d tensor here: the result is unknown."""
        t = get_proper_type(actual.type)
        if isinstance(t, TupleType):
            return [self._item_shape(item) for item in t.items]
        return self._listed_shapes(actual.expr)

    def _listed_shapes(self, expr: Expression) -> list[MaybeShape] | None:
        """The shapes of tensors written out: a display (`[x, y]`), or displays joined and repeated
        (`[x] * 3`, `[x] + [y] * 2`) with a count that is a constant.  Read from the items, as the type
        mypy gives the whole in a call's context is `list[Tensor]`, which has lost their shapes."""
        if isinstance(expr, (ListExpr, TupleExpr)):
            if any(_is_starred(i) for i in expr.items):
                return None
            shapes = []
            for item in expr.items:
                item_type = self.type_of(item)
                if item_type is None:
                    return None
                shapes.append(self._item_shape(item_type))
            return shapes
        if isinstance(expr, OpExpr) and expr.op == "+":
            left, right = self._listed_shapes(expr.left), self._listed_shapes(expr.right)
            return left + right if left is not None and right is not None else None
        repeated = self._repeated_display(expr)
        if repeated is not None:
            times = self._constant(repeated[1])
            return repeated[0] * max(times, 0) if times is not None else None
        return None

    def _repeated_display(self, expr: Expression) -> tuple[list[MaybeShape], Expression] | None:
        """`seq * n` or `n * seq` with `seq` written out (`[x] * n`): the shapes of `seq`, and `n`."""
        if not (isinstance(expr, OpExpr) and expr.op == "*"):
            return None
        for items, count in ((expr.left, expr.right), (expr.right, expr.left)):
            if isinstance(items, (TupleExpr, ListExpr, OpExpr)):
                shapes = self._listed_shapes(items)
                if shapes is not None:
                    return shapes, count
        return None

    def repeated_shapes(self, *names: str) -> list[MaybeShape] | None:
        """The shapes of one copy of a sequence of tensors written out and repeated an unknown number of
        times (`torch.cat([x] * n)`, `n` an int); None for any other argument."""
        actuals = self.actuals(*names)
        if len(actuals) != 1:
            return None
        repeated = self._repeated_display(actuals[0].expr)
        if repeated is None:
            return None
        count_type = self.type_of(repeated[1])
        return repeated[0] if count_type is not None and is_int_like(count_type) else None

    def _item_shape(self, item: Type) -> MaybeShape:
        try:
            return self.scope.tensor_shape(item)
        except NotATensor:
            raise NotKnown from None

    def element_shape(self, *names: str) -> MaybeShape:
        """The shape of the tensors in a homogeneous sequence argument (`list[Tensor[B, D]]`)."""
        actuals = self.actuals(*names)
        if len(actuals) != 1:
            raise NotKnown
        expr = actuals[0].expr
        if isinstance(expr, (ListComprehension, GeneratorExpr)):
            generator = expr.generator if isinstance(expr, ListComprehension) else expr
            item_type = self.type_of(generator.left_expr)
            if item_type is not None:
                return self.shape_of(Actual(item_type, generator.left_expr, actuals[0].kind))
        t = get_proper_type(actuals[0].type)
        if isinstance(t, Instance) and len(t.args) == 1:
            return self.shape_of(Actual(t.args[0], actuals[0].expr, actuals[0].kind))
        raise NotKnown

    # -- results ------------------------------------------------------------------------------

    def tensor(self, shape: MaybeShape) -> Instance:
        return self.scope.tensor_type(shape)

    def tensors(self, shapes: Sequence[MaybeShape] | None, fallback: Type | None = None) -> Type:
        """A tuple of tensors (`split`, `chunk`); the default result when the count is unknown.  Its class
        is `fallback`'s: a tuple's, or a named tuple class (`torch.return_types.max`)."""
        if shapes is None:
            return self.default
        items: list[Type] = [self.tensor(s) for s in shapes]
        proper = get_proper_type(fallback) if fallback is not None else None
        if isinstance(proper, TupleType):
            return TupleType(items, proper.partial_fallback)
        if isinstance(proper, Instance) and proper.type.tuple_type is not None:
            return TupleType(items, proper)
        return TupleType(items, self.scope.instance(_names.TUPLE, [self.scope.tensor_type(None)]))

    def repeated(self, shapes: Sequence[MaybeShape] | None, piece: MaybeShape) -> Type:
        """The pieces of a cut (`split`, `chunk`, `unbind`): a tuple of each one's tensor, or where
        their number is unknown, a tuple of any length of tensors of the shape they all have."""
        if shapes is not None or piece is None:
            return self.tensors(shapes)
        return self.scope.instance(_names.TUPLE, [self.tensor(piece)])

    def result(self, compute: Callable[[], Type], callee: str) -> Type:
        """`compute()`, the result of this call of `callee` by its shape rule: torch's own result where an
        argument is unmatched or cannot be read, an error on the call's line where the rule fails."""
        try:
            return self.attempt(compute, callee)
        except ShapeRuleError as err:
            guarded = _guards.retried(self.api, self.context, self.scope, lambda: self.attempt(compute, callee))
            return guarded if guarded is not None else self.fail(err)

    def attempt(self, compute: Callable[[], Type], callee: str) -> Type:
        """`result` without the report: raises `ShapeRuleError` where the rule fails."""
        if self.has_unmatched(callee):
            return self.default
        try:
            return compute()
        except NotKnown:
            return self.default

    def fail(self, error: ShapeRuleError) -> Type:
        fail_call(self.api, self.scope.render(str(error)), self.context, _errors.SHAPE)
        return self.tensor(None) if _returns_tensor(self.default) else self.default


def literal_int(expr: Expression) -> Size:
    if isinstance(expr, IntExpr):
        return const(expr.value)
    if isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr):
        return const(-expr.expr.value)
    return None


def one_argument(ctx: FunctionContext | MethodContext, parameter: str) -> tuple[Expression, Type] | None:
    """The one argument a call gives for `parameter`, with its type (None where it gives none, or several)."""
    if parameter not in ctx.callee_arg_names:
        return None
    index = ctx.callee_arg_names.index(parameter)
    if len(ctx.args[index]) != 1:
        return None
    return ctx.args[index][0], ctx.arg_types[index][0]


def _declared_one_int(expr: Expression, t: TupleType) -> bool:
    """A name declared `tuple[int]` (`patch_size: Tuple[int] = (1, 2, 2)`): the classic way of writing
    `tuple[int, ...]`, which mypy holds to one item but the code may well not.  Its number of sizes is
    unknown: counted as one, `w.view(-1, 1, *patch_size)` would be 3-d where torch's is 5-d."""
    if len(t.items) != 1 or not isinstance(expr, RefExpr) or not isinstance(expr.node, Var) or expr.node.is_inferred:
        return False
    item = get_proper_type(t.items[0])
    return isinstance(item, Instance) and item.type.fullname == _names.INT and item.last_known_value is None


def _is_starred(expr: Expression) -> bool:
    return isinstance(expr, StarExpr)


def is_int_like(t: Type) -> bool:
    """An int of any value: `int`, a literal, a `Dim`, or a union of them (`n` after `n = n * 2` in a loop)."""
    p = get_proper_type(t)
    if isinstance(p, UnionType):
        return bool(p.items) and all(is_int_like(item) for item in p.items)
    return (
        isinstance(p, Instance) and p.type.fullname in (_names.INT, "torch.SymInt", _names.DIM)
        or isinstance(p, LiteralType)
    )


def _is_tensor(t: ProperType) -> bool:
    return isinstance(t, Instance) and (t.type.fullname == _names.TENSOR or t.type.has_base(_names.TENSOR))


def _is_scalar(t: ProperType) -> bool:
    if isinstance(t, LiteralType):
        return True
    return isinstance(t, Instance) and t.type.fullname in (
        _names.INT,
        _names.BOOL,
        "builtins.float",
        "builtins.complex",
        _names.DIM,
        "torch.SymInt",
        "torch.SymFloat",
        "torch.SymBool",
    )


def _returns_tensor(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname == _names.TENSOR


def _declared_signature(ctx: FunctionContext | MethodContext) -> Type | None:
    """The declared type of the callee of `ctx`'s call, where its expression names it."""
    call = ctx.context
    if not isinstance(call, CallExpr) or not isinstance(call.callee, RefExpr):
        return None
    node = call.callee.node
    if node is None and isinstance(ctx, MethodContext) and isinstance(call.callee, MemberExpr):
        receiver = get_proper_type(ctx.type)
        symbol = receiver.type.get(call.callee.name) if isinstance(receiver, Instance) else None
        node = symbol.node if symbol is not None else None
    if isinstance(node, (FuncDef, OverloadedFuncDef)):
        return node.type
    if isinstance(node, Decorator):
        return node.var.type
    return None
