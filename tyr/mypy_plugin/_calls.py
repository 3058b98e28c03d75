"""Calls whose signatures have shapes: `def linear(x: Tensor[B, M], w: Tensor[N, M]) -> Tensor[B, N]`.

mypy infers a type variable from all of its uses by joining them (768 and 512 join
to `int`), which would hide exactly the mismatches tyr is for.  So for a callee
whose parameters have shapes, tyr does the shape part of the call itself:

1. Before mypy checks the call (a signature hook), the parameters' shapes are
   erased (`Tensor[B, M]` becomes `Tensor`, `Dim[D]` becomes `int`) and the type
   variables used as sizes are taken out of the signature's type variables, so
   mypy checks everything else about the call and leaves the sizes alone.
2. After (a function or method hook), tyr matches each argument's shape against
   its parameter's, binding the size variables (solving `"2*D"` given 10 for
   `D = 5`), reports a dimension bound to two different sizes on the line of the
   call, and substitutes the bindings into the return type.

Unknown sizes never cause an error: they bind nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from mypy.expandtype import expand_type, freshen_function_type_vars
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import Context
from mypy.plugin import (
    AttributeContext,
    CheckerPluginInterface,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
)
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    NoneType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarId,
    TypeVarLikeType,
    TypeVarTupleType,
    TypeVarType,
    UnionType,
    get_proper_type,
)

from tyr._symbolic import NO_SOLUTION, Expr, sizes_equal, solve_for
from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._jaxtyping_names import listed
from tyr.mypy_plugin._types import (
    UNKNOWN,
    Lookup,
    NotATensor,
    Scope,
    erase_shapes,
    is_int_literal,
    is_tensor_instance,
    mentions_shapes,
    normalise,
    shape_variables,
)
from tyr.shape_rules import MaybeShape, Size, Variadic
from tyr.shape_rules.core import differ, show_shape


class PendingCalls:
    """The original signatures of calls whose shapes were erased, until their return hook runs."""

    def __init__(self) -> None:
        self._by_call: dict[tuple[int, tuple[str | None, ...]], CallableType] = {}

    def put(self, context: Context, signature: CallableType) -> None:
        self._by_call[(id(context), tuple(signature.arg_names))] = signature

    def take(self, context: Context, arg_names: Sequence[str | None]) -> CallableType | None:
        return self._by_call.pop((id(context), tuple(arg_names)), None)


def erase_signature(signature: CallableType, context: Context, pending: PendingCalls, lookup: Lookup) -> CallableType:
    """The signature mypy should check the call against: shapes erased (the original is kept in `pending`)."""
    if not any(mentions_shapes(t) for t in signature.arg_types):
        return signature
    signature = freshen_function_type_vars(listed(signature))
    scope = Scope(lookup)
    sized: set[TypeVarId] = set()
    for t in signature.arg_types:
        sized |= shape_variables(t).keys()
    sized |= shape_variables(signature.ret_type).keys()
    pending.put(context, signature)
    # A size variable may also stand as a plain type argument (`rotary: Rotary[Hd]` beside `head_dim:
    # Dim[Hd]`): it is no variable of the erased signature, so there it is `Any`, and the binder matches it.
    unsized: dict[TypeVarId, Type] = {var: AnyType(TypeOfAny.special_form) for var in sized}
    return signature.copy_modified(
        arg_types=[expand_type(erase_shapes(t, scope) if mentions_shapes(t) else t, unsized)
                   for t in signature.arg_types],  # fmt: skip
        variables=[v for v in signature.variables if v.id not in sized],
    )


def function_signature_hook(ctx: FunctionSigContext, pending: PendingCalls, lookup: Lookup) -> CallableType:
    return erase_signature(ctx.default_signature, ctx.context, pending, lookup)


def method_signature_hook(ctx: MethodSigContext, pending: PendingCalls, lookup: Lookup) -> CallableType:
    return erase_signature(ctx.default_signature, ctx.context, pending, lookup)


def call_hook(ctx: FunctionContext | MethodContext, pending: PendingCalls, lookup: Lookup) -> Type:
    """The return type of a call to a callee with shapes (or mypy's, normalised, for any other)."""
    signature = pending.take(ctx.context, ctx.callee_arg_names)
    if signature is None:
        if mentions_shapes(ctx.default_return_type):
            return normalise(ctx.default_return_type, Scope(lookup))
        return ctx.default_return_type
    return bind_call(signature, ctx.arg_types, ctx.default_return_type, ctx.api, ctx.context, lookup, args=ctx.args)


def bind_call(
    signature: CallableType,
    arg_types: Sequence[Sequence[Type]],
    return_type: Type,
    api: CheckerPluginInterface,
    context: Context,
    lookup: Lookup,
    callee: str | None = None,
    *,
    prefix: str = "",
    args: Sequence[Sequence[Context]] = (),
) -> Type:
    """Match the arguments (grouped by formal) against `signature`, report mismatches, return the result type.

    `return_type` is the signature's return type with everything but the size
    variables already substituted (mypy's inferred return type for the erased call).
    """
    scope = Scope(lookup)
    binder = Binder(scope, signature, callee or callee_name(signature))
    contexts: dict[str, Context] = {}
    for index, (param, actuals) in enumerate(zip(signature.arg_types, arg_types)):
        if not mentions_shapes(param) and not binder.sized_arguments(param):
            continue
        name = signature.arg_names[index]
        where = f'argument "{name}"' if name else f"argument {index + 1}"
        if index < len(args) and args[index]:
            contexts[where] = args[index][0]
        for actual in actuals:
            binder.pair(param, actual, where)
    binder.solve_deferred()
    for message, where in binder.errors:
        # on the argument that does not fit (the line of the call, unless the call spans lines)
        api.fail(prefix + scope.render(message), contexts.get(where, context), code=_errors.SHAPE)
    result = get_proper_type(return_type)
    if binder.errors and isinstance(result, Instance) and result.type.fullname == _names.TENSOR:
        # which binding of a conflicting size is right is unknown: a result shaped after one of
        # them would fail later checks that the fixed call passes (errors after the real one)
        return scope.tensor_type(None)
    return normalise(expand_type(binder.bind_expressions(return_type), binder.environment()), scope)


class _ExpressionBindings(TypeTranslator):
    """A `DimExpr` size that the call bound as a whole (`"B*NW"` given 6) replaced by its binding."""

    def __init__(self, binder: Binder) -> None:
        super().__init__()
        self.binder = binder

    def visit_instance(self, t: Instance, /) -> Type:
        if t.type.fullname == _names.DIM_EXPR:
            bound = self.binder.binding_of(self.binder.scope.size_of(t))
            if bound is not None:
                return self.binder.scope.size_type(bound)
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t if t.is_recursive else get_proper_type(t).accept(self)


def unshaped_attribute_hook(ctx: AttributeContext, lookup: Lookup) -> Type:
    """An unannotated tensor or size attribute: its shape or size is forgotten, so assigning another is no error."""
    scope = Scope(lookup)
    if is_int_literal(ctx.default_attr_type):
        return scope.instance(_names.INT)
    return erase_shapes(ctx.default_attr_type, scope)


MAPPED = frozenset({"torch._functorch.apis.vmap", "torch._functorch.apis.chunk_vmap"})
"""`torch.vmap` and its kin: they map a function over a dim of its arguments."""


def mapped_function_hook(ctx: FunctionContext, lookup: Lookup) -> Type:
    """`torch.vmap(f)`: torch types it as `f` itself, but it takes (and gives) tensors of one more dim
    than `f`'s shapes say, so the function it gives has tensors of unknown shape."""
    return erase_shapes(ctx.default_return_type, Scope(lookup))


def attribute_hook(ctx: AttributeContext, lookup: Lookup) -> Type:
    """A generic class's sized attribute, its sizes renormalised after mypy substituted the instance's."""
    return normalise(ctx.default_attr_type, Scope(lookup))


def callee_name(signature: CallableType) -> str:
    name = signature.name or "function"
    if " of " in name:  # mypy names methods "forward of Block"
        method, owner = name.split(" of ", 1)
        return f"{owner}.{method}"
    return name


# -- binding --------------------------------------------------------------------------------------


@dataclass
class _Deferred:
    pattern: Expr
    actual: Expr
    where: str
    position: int | None


@dataclass
class Binder:
    """Binds a callee's size variables from its arguments' shapes."""

    scope: Scope
    signature: CallableType
    callee: str
    errors: list[tuple[str, str]] = field(default_factory=list)  # (message, the argument it is about)
    sizes: dict[str, Expr] = field(default_factory=dict)  # by symbol name
    bound_by: dict[str, str] = field(default_factory=dict)
    tuples: dict[str, tuple[Size | Variadic, ...]] = field(default_factory=dict)
    deferred: list[_Deferred] = field(default_factory=list)
    expressions: list[tuple[Expr, Expr]] = field(default_factory=list)  # (a size expression, its size)

    def __post_init__(self) -> None:
        self.variables: dict[str, TypeVarLikeType] = {}
        for var in self.signature.variables:
            self.variables[self.scope.name_of(var)] = var
        for var in _late_bound(self.signature):
            self.variables[self.scope.name_of(var)] = var

    # -- pairing parameters with arguments ----------------------------------------------------

    def pair(self, param: Type, actual: Type, where: str) -> None:
        p = get_proper_type(param)
        a = get_proper_type(actual)
        if isinstance(p, Instance):
            fullname = p.type.fullname
            if fullname == _names.TENSOR:
                shape = self._tensor_shape(a)
                if shape is not _NOT_A_TENSOR:
                    assert not isinstance(shape, _NotATensor)
                    self.match_shape(self.scope.shape_of_args(p.args), shape, where)
                return
            if fullname == _names.DIM:
                pattern = self.scope.size_of(p.args[0]) if p.args else None
                if pattern is not None:
                    self.match_size(pattern, self.scope.size_of(a), where, None)
                return
            if isinstance(a, Instance) and p.args:
                if a.type.has_base(fullname):
                    mapped = map_instance_to_supertype(a, p.type)
                    for p_arg, a_arg in zip(p.args, mapped.args):
                        if mentions_shapes(p_arg):
                            self.pair(p_arg, a_arg, where)
                        elif self._is_size_argument(p_arg):  # `Rotary[Hd]`: Hd is a size of this call
                            pattern = self.scope.size_of(p_arg)
                            if pattern is not None:
                                self.match_size(pattern, self.scope.size_of(a_arg), where, None)
            elif isinstance(a, TupleType) and len(p.args) == 1:
                for item in a.items:  # a tuple literal passed as a Sequence[Tensor[...]]
                    self.pair(p.args[0], item, where)
            return
        if isinstance(p, UnionType):
            shaped = [item for item in p.items if mentions_shapes(item) or self.sized_arguments(item)]
            if len(shaped) != 1:
                return
            if isinstance(a, UnionType):
                others = [item for item in a.items if not isinstance(get_proper_type(item), NoneType)]
                if len(others) != 1:
                    return
                a = get_proper_type(others[0])
            self.pair(shaped[0], a, where)
            return
        if isinstance(p, TupleType) and isinstance(a, TupleType) and len(a.items) == len(p.items):
            for p_item, a_item in zip(p.items, a.items):
                self.pair(p_item, a_item, where)

    def _is_size_argument(self, arg: Type) -> bool:
        t = get_proper_type(arg)
        return isinstance(t, TypeVarType) and self._is_variable(self.scope.name_of(t))

    def sized_arguments(self, param: Type) -> bool:
        """Whether `param` is a generic instance with a size variable of this call among its type arguments."""
        p = get_proper_type(param)
        if isinstance(p, UnionType):
            return any(self.sized_arguments(item) for item in p.items)
        return isinstance(p, Instance) and any(self._is_size_argument(arg) for arg in p.args)

    def _tensor_shape(self, a: Type) -> MaybeShape | _NotATensor:
        a = get_proper_type(a)
        if isinstance(a, UnionType):
            # an Optional tensor binds as its tensor; several tensors as the shape they share; with
            # `Any` among them (`x = block(x)` through an untyped callee, in a loop or a branch) the
            # shape is unknown: the old shape is only one path's
            items = [get_proper_type(item) for item in a.items]
            tensors = [item for item in items if is_tensor_instance(item)]
            if not tensors:
                return _NOT_A_TENSOR
            if any(isinstance(item, AnyType) for item in items):
                return None
            a = get_proper_type(UnionType.make_union(tensors))
        try:
            return self.scope.tensor_shape(a)
        except NotATensor:
            return _NOT_A_TENSOR

    # -- shapes -------------------------------------------------------------------------------

    def _is_variable(self, name: str) -> bool:
        return name in self.variables

    def match_shape(self, pattern: MaybeShape, actual: MaybeShape, where: str) -> None:
        if pattern is None or actual is None:
            return
        pv = _variadic_at(pattern)
        av = _variadic_at(actual)
        if pv is None and av is None:
            if len(pattern) != len(actual):
                self._rank_error(pattern, actual, where)
                return
            for pos, (p, a) in enumerate(zip(pattern, actual)):
                self._match_item(p, a, where, pos)
            return
        if pv is None:
            assert av is not None
            before, after = av, len(actual) - av - 1
            if before + after > len(pattern):
                self._rank_error(pattern, actual, where)
                return
            for pos in range(before):
                self._match_item(pattern[pos], actual[pos], where, pos)
            for k in range(1, after + 1):
                self._match_item(pattern[-k], actual[-k], where, len(pattern) - k)
            return
        p_before, p_after = pv, len(pattern) - pv - 1
        var = pattern[pv]
        assert isinstance(var, Variadic)
        if av is None:
            if p_before + p_after > len(actual):
                self._rank_error(pattern, actual, where)
                return
            middle: tuple[Size | Variadic, ...] | None = actual[p_before : len(actual) - p_after]
            front, back = p_before, p_after
        else:
            a_before, a_after = av, len(actual) - av - 1
            front, back = min(p_before, a_before), min(p_after, a_after)
            exact = p_before <= a_before and p_after <= a_after
            middle = actual[p_before : len(actual) - p_after] if exact else None
        for pos in range(front):
            self._match_item(pattern[pos], actual[pos], where, pos)
        for k in range(1, back + 1):
            self._match_item(pattern[-k], actual[-k], where, None)
        if self._is_variable(var.name):
            self._bind_tuple(var.name, middle, where)

    def _match_item(self, p: Size | Variadic, a: Size | Variadic, where: str, pos: int | None) -> None:
        if isinstance(p, Variadic) or isinstance(a, Variadic):
            return
        if p is not None:
            self.match_size(p, a, where, pos)

    def _bind_tuple(self, name: str, items: tuple[Size | Variadic, ...] | None, where: str) -> None:
        if items is None:
            return
        previous = self.tuples.get(name)
        if previous is None:
            self.tuples[name] = items
            self.bound_by[name] = where
            return
        clash = len(previous) != len(items) and not any(isinstance(i, Variadic) for i in (*previous, *items))
        if not clash and len(previous) == len(items):
            clash = any(
                not isinstance(p, Variadic) and not isinstance(a, Variadic) and differ(p, a)
                for p, a in zip(previous, items)
            )
        if clash:
            message = _errors.BOUND_TWICE.format(
                dim="*" + name,
                callee=self.callee,
                first=show_shape(previous),
                first_where=self.bound_by[name],
                second_where=where,
                second=show_shape(items),
            )
            self.errors.append((message, where))

    def _rank_error(self, pattern: tuple[Size | Variadic, ...], actual: tuple[Size | Variadic, ...], where: str) -> None:
        message = _errors.RANK_MISMATCH.format(
            where=where[0].upper() + where[1:],
            callee=self.callee,
            actual=show_shape(actual),
            actual_rank=_rank_text(actual),
            expected_rank=_rank_text(pattern),
            expected=self._show_shape(pattern),
        )
        self.errors.append((message, where))

    def _show_shape(self, shape: tuple[Size | Variadic, ...]) -> str:
        items = []
        for item in shape:
            if isinstance(item, Variadic):
                items.append("*" + item.name)
            else:
                items.append(self._show(item))
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"

    def _show(self, size: Size) -> str:
        return "?" if size is None else str(size)  # (messages are rendered whole: `Scope.render`)

    # -- sizes --------------------------------------------------------------------------------

    def match_size(self, pattern: Expr, actual: Size, where: str, pos: int | None) -> None:
        own = {s for s in pattern.symbols if self._is_variable(s)}
        name = pattern.symbol_name
        if name is not None and name in own:
            if actual is None:
                return
            bound = self.sizes.get(name)
            if bound is None:
                self.sizes[name] = actual
                self.bound_by[name] = where
            elif not sizes_equal(bound, actual):
                message = _errors.BOUND_TWICE.format(
                    dim=name,
                    callee=self.callee,
                    first=self._show(bound),
                    first_where=self.bound_by[name],
                    second_where=where,
                    second=self._show(actual),
                )
                self.errors.append((message, where))
            return
        if own:
            if actual is not None:
                self.deferred.append(_Deferred(pattern, actual, where, pos))
            return
        if actual is not None and differ(pattern, actual):
            self._size_error(pattern, actual, where, pos)

    def _size_error(self, expected: Expr, actual: Expr, where: str, pos: int | None) -> None:
        shown = {"callee": self.callee, "expected": self._show(expected), "actual": self._show(actual)}
        if pos is None:
            message = _errors.VALUE_MISMATCH.format(where=where[0].upper() + where[1:], **shown)
        else:
            message = _errors.SIZE_MISMATCH.format(pos=pos, where=where, **shown)
        self.errors.append((message, where))

    def solve_deferred(self) -> None:
        progress = True
        while progress and self.deferred:
            progress = False
            remaining: list[_Deferred] = []
            for item in self.deferred:
                pattern = item.pattern.substitute({k: v for k, v in self.sizes.items() if k in item.pattern.symbols})
                unknown = [s for s in pattern.symbols if self._is_variable(s)]
                if not unknown:
                    if not sizes_equal(pattern, item.actual):
                        self._size_error(pattern, item.actual, item.where, item.position)
                    progress = True
                    continue
                if len(unknown) == 1:
                    solved = solve_for(pattern, unknown[0], item.actual)
                    if isinstance(solved, Expr):
                        self.sizes[unknown[0]] = solved
                        self.bound_by[unknown[0]] = item.where
                        progress = True
                        continue
                    if solved is NO_SOLUTION:
                        self._size_error(item.pattern, item.actual, item.where, item.position)
                        progress = True
                        continue
                remaining.append(item)
            self.deferred = remaining
        # What no argument determines (`"B*NW"` alone) is bound as a whole: the same size
        # expression elsewhere in the call (another argument, the result) is that size.
        for item in self.deferred:
            pattern = item.pattern.substitute({k: v for k, v in self.sizes.items() if k in item.pattern.symbols})
            earlier = next((e for e in self.expressions if sizes_equal(e[0], pattern)), None)
            if earlier is None:
                self.expressions.append((pattern, item.actual))
            elif differ(earlier[1], item.actual):
                self._size_error(earlier[1], item.actual, item.where, item.position)
        self.deferred = []

    def bind_expressions(self, typ: Type) -> Type:
        """`typ` with each size that is an expression bound as a whole replaced by its binding."""
        if not self.expressions:
            return typ
        return typ.accept(_ExpressionBindings(self))

    def binding_of(self, size: Size) -> Size:
        if size is None:
            return None
        size = size.substitute({k: v for k, v in self.sizes.items() if k in size.symbols})
        return next((actual for pattern, actual in self.expressions if sizes_equal(pattern, size)), None)

    # -- results ------------------------------------------------------------------------------

    def environment(self) -> dict[TypeVarId, Type]:
        """Each size variable of the signature mapped to its binding (`Any` where unbound)."""
        env: dict[TypeVarId, Type] = {}
        for name, var in self.variables.items():
            bound = name in self.sizes or name in self.tuples
            if not (bound or _is_size_variable(var, self.signature)):
                continue  # mypy infers it
            if isinstance(var, TypeVarType):
                env[var.id] = self.scope.size_type(self.sizes.get(name))
            elif isinstance(var, TypeVarTupleType):
                env[var.id] = self._tuple_type(self.tuples.get(name))
        return env

    def _tuple_type(self, items: tuple[Size | Variadic, ...] | None) -> Type:
        if items is None:
            return self.scope.instance(_names.TUPLE, [UNKNOWN])
        args = self.scope.shape_args(items)
        return TupleType(args, self.scope.instance(_names.TUPLE, [UNKNOWN]))


class _NotATensor:
    pass


_NOT_A_TENSOR = _NotATensor()


def _variadic_at(shape: tuple[Size | Variadic, ...]) -> int | None:
    for i, item in enumerate(shape):
        if isinstance(item, Variadic):
            return i
    return None


def _rank_text(shape: MaybeShape) -> str:
    if shape is None:
        return "?"
    v = _variadic_at(shape)
    return str(len(shape)) if v is None else f"{len(shape) - 1} or more"


def _is_size_variable(var: TypeVarLikeType, signature: CallableType) -> bool:
    return any(var.id in shape_variables(t) for t in (*signature.arg_types, signature.ret_type))


def _late_bound(signature: CallableType) -> list[TypeVarLikeType]:
    """Size variables the signature mentions only in dimension strings, bound to it by tyr (`_annotations`).

    They are the function's own type variables (its namespace) that mypy did not list.
    """
    definition = signature.definition
    if definition is None:
        return []
    listed = {v.id for v in signature.variables}
    found: list[TypeVarLikeType] = []
    # (one only the result mentions, `-> Tensor[B, "E//2"]`, is bound to nothing: unknown, never the callee's `E`)
    for t in (*signature.arg_types, signature.ret_type):
        for var_id, var in shape_variables(t).items():
            if var_id not in listed and var_id.namespace == definition.fullname and var_id.raw_id < 0:
                listed.add(var_id)
                found.append(var)
    return found
