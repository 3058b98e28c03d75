"""einops: `rearrange`, `reduce`, `repeat`, `einsum`, `pack` / `unpack`, and the torch layers.

einops types its functions `Tensor -> Tensor` with one type variable, so without the
plugin `rearrange(x, "b n (h d) -> b h n d", h=8)` would have `x`'s shape.  Each hook
here applies the einops rule of `tyr.shape_rules.einops` to a literal pattern (a
string literal, or a `Final`/`Literal` name), the tensor's shape and the keyword
lengths (int literals, `Dim`s; any other int is a length given but unknown).  When
the pattern, a tensor or the keywords (`**lengths`) cannot be read, the result is
the bare `Tensor`, never the input's type; a `ShapeRuleError` is a `tyr-shape` error
on the call.

* `rearrange` / `reduce` / `repeat` also take a list or tuple of tensors, stacked first.
* `pack(tensors, pattern)`: the packed tensor; the packed shapes `ps` keep einops' type.
  `unpack(x, ps, pattern)` reads the pieces' shapes from a literal list (`[(1,), (n,)]`),
  a tuple, or, for a local variable, the one `x, ps = pack(...)` that defines it where
  every other use of `ps` is as an `unpack`'s packed shapes (nothing can have changed
  the list in between).  Its result is a tuple of the pieces' tensors where it is
  unpacked at once (`cls, x = unpack(...)`), else a list (of the pieces' shape where
  they share one), since code may change a list.
* `**parse_shape(y, pattern)` passes `y`'s sizes as lengths, read where it is written.

**The layers.**  `einops.layers.torch.Rearrange(pattern, **lengths)` and
`Reduce(pattern, reduction, **lengths)` are made generic by tyr's stub
(`typed_stubs/einops-stubs/layers/torch.pyi`), so the pattern is part of the
layer's type, as a torch module's sizes are part of its type (`Linear[784, 256]`):
the constructor hook turns

    Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=p, p2=p)  # p: Dim[P]

into `Rearrange[Literal["b c (h p1) (w p2) -> b (h w) (p1 p2 c)"], Literal["p1"], P,
Literal["p2"], P]`: the pattern, then each keyword length as its name and its size (a
literal, the `Dim`'s type variable, a `DimExpr`, or `Any`).  `Reduce` has its reduction
after the pattern.  A type carries the pattern wherever the layer goes (an attribute,
`nn.Sequential(Rearrange(...), nn.Linear(...))`, the incremental cache), where a
constructor expression would be out of reach; `_modules` runs the layer's rule
(`LAYER_FORWARDS`) when it is called or chained.  A pattern einops rejects is an
error where the layer is built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_POS,
    ARG_STAR,
    ARG_STAR2,
    LDEF,
    AssignmentStmt,
    CallExpr,
    Context,
    Expression,
    ListExpr,
    NameExpr,
    Node,
    RefExpr,
    StarExpr,
    TupleExpr,
    Var,
)
from mypy.erasetype import erase_typevars
from mypy.plugin import FunctionContext, FunctionSigContext
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    FunctionLike,
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypeOfAny,
    UnboundType,
    UninhabitedType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._args import Actual, Call, NotKnown
from tyr.mypy_plugin._types import UNKNOWN, Lookup, NotATensor, Scope, is_tensor_instance
from tyr.shape_rules import MaybeShape, ShapeRuleError, Size, Variadic, stack, stack_repeated
from tyr.shape_rules import einops as rules
from tyr.shape_rules.core import same

if TYPE_CHECKING:
    from tyr.mypy_plugin._modules import Module

_EINOPS = "einops.einops."
_PACKING = "einops.packing."
_LAYERS = "einops.layers.torch."

Handler = Callable[[Call], Type]


# -- functions ------------------------------------------------------------------------------------


def function_hook(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    scope = Scope(lookup)
    solved = _list_solved_by_context(ctx, fullname, scope)
    if solved is not None:
        return solved
    call = Call(ctx, scope, fullname.rpartition(".")[2])
    try:
        return _of_input_class(ctx, FUNCTIONS[fullname](call))
    except NotKnown:
        return unknown(ctx, fullname, lookup)
    except ShapeRuleError as err:
        call.api.fail(str(err), call.context, code=_errors.SHAPE)
        return unknown(ctx, fullname, lookup)


_LIST_OVERLOADED = frozenset({_EINOPS + "rearrange", _EINOPS + "reduce", _EINOPS + "repeat"})
"""einops functions overloaded `(list[T]) -> T` and `(T) -> T`, with `T` their `Tensor` type variable."""


def _list_solved_by_context(ctx: FunctionContext, fullname: str, scope: Scope) -> Type | None:
    """`xs = rearrange(xs, ...)` with `xs` a list: in that context (a list, where a tensor does not fit)
    mypy solves einops' second overload, whose type variable is the list itself, and types the
    call as the list.  tyr gives what mypy gives there (no tensor assigned to a list); None where a
    tensor fits the context."""
    if fullname not in _LIST_OVERLOADED or not ctx.arg_types or len(ctx.arg_types[0]) != 1:
        return None
    api = ctx.api
    if not isinstance(api, TypeChecker) or not api.expr_checker.type_context:
        return None
    context = api.expr_checker.type_context[-1]
    first = ctx.arg_types[0][0]
    p = get_proper_type(first)
    if context is None or isinstance(get_proper_type(context), AnyType) or not isinstance(p, (Instance, TupleType)):
        return None
    if isinstance(p, Instance) and is_tensor_instance(p):
        return None
    return first if is_subtype(first, context) and not is_subtype(scope.tensor_type(None), context) else None


def _of_input_class(ctx: FunctionContext, result: Type) -> Type:
    """einops types its functions "the input's type in, the same type out": `rearrange` of an
    `nn.Parameter` is a `Parameter` to mypy (torch returns a plain tensor).  tyr keeps that class,
    of the shape the pattern gives where the class is generic in its shape (as `Parameter` is),
    so that `x = w; x = rearrange(x, ...)` and chains of einops calls check as without tyr."""
    first = get_proper_type(ctx.arg_types[0][0]) if ctx.arg_types and ctx.arg_types[0] else None
    shaped = get_proper_type(result)
    if not (isinstance(first, Instance) and isinstance(shaped, Instance) and shaped.type.fullname == _names.TENSOR):
        return result
    if first.type.fullname == _names.TENSOR or not first.type.has_base(_names.TENSOR):
        return result
    if first.type.has_type_var_tuple_type and len(first.type.type_vars) == 1:
        return first.copy_modified(args=shaped.args)
    return first


def unknown(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    """The result when nothing can be said: the bare `Tensor` where einops' type says "the input's type"."""
    first = ctx.arg_types[0][0] if ctx.arg_types and ctx.arg_types[0] else None
    if first is None or fullname == _EINOPS + "parse_shape":
        return ctx.default_return_type
    scope = Scope(lookup)
    # einops' type for its `Tensor` type variable (erased from the signature's return by `signature_hook`)
    # (`unpack` takes the type variable itself; the others a tensor or a sequence of them.)
    if fullname == _PACKING + "unpack":
        p = get_proper_type(first)
        solved: Type = scope.tensor_type(None) if isinstance(p, Instance) and is_tensor_instance(p) else first
    else:
        solved = _of_input_class(ctx, scope.tensor_type(None)) if _holds_tensors(first) else _plain_element(first)
        p = get_proper_type(first)
        if isinstance(p, UnionType) and any(_holds_tensors(item) for item in p.items):
            # `Any | Tensor[2, 8]` (an untyped `mask=None` given a tensor): the tensor's old shape is not the result's
            solved = UnionType.make_union([scope.tensor_type(None) if _holds_tensors(i) else i for i in p.items])
    default = get_proper_type(ctx.default_return_type)
    if fullname == _PACKING + "pack":
        return default.copy_modified(items=[solved, *default.items[1:]]) if isinstance(default, TupleType) else default
    if fullname == _PACKING + "unpack":
        return scope.instance(_names.LIST, [solved])
    return solved


def _element(t: Type) -> Type:
    """The tensor type in a list or tuple of them (einops takes either), or the type itself."""
    p = get_proper_type(t)
    if isinstance(p, TupleType) and p.items:
        return p.items[0]
    if isinstance(p, Instance) and p.type.fullname in (_names.LIST, _names.TUPLE, "typing.Sequence") and p.args:
        return p.args[0]
    return t


def _plain_element(t: Type) -> Type:
    """What einops' "the input's type out" gives for input that holds no tensor: that type
    (`np.ndarray`), or for a type mypy could not read (an annotation it refused, as `Float["b n"]`
    of a home-made jaxtyping wrapper) what mypy's own solving gives: `Never` for it alone, `Any`
    inside a list or tuple."""
    element = _element(t)
    if not _unread(element):
        return element
    return AnyType(TypeOfAny.from_error) if element is not t else UninhabitedType()


def _unread(t: Type) -> bool:
    p = get_proper_type(t)
    return any(isinstance(get_proper_type(i), UnboundType) for i in (p.items if isinstance(p, UnionType) else [p]))


def _holds_tensors(t: Type) -> bool:
    """A tensor, or a list or tuple of them."""
    p = get_proper_type(t)
    if isinstance(p, TupleType):
        return bool(p.items) and all(_holds_tensors(i) for i in p.items)
    if isinstance(p, Instance) and p.type.fullname in (_names.LIST, _names.TUPLE, "typing.Sequence"):
        return len(p.args) == 1 and _holds_tensors(p.args[0])
    return isinstance(p, Instance) and is_tensor_instance(p)


def _pattern(call: Call, *names: str) -> str:
    pattern = call.str_arg(*names)
    if pattern is None:
        raise NotKnown
    return pattern


def _lengths(call: Call, formal: str = "axes_lengths") -> dict[str, Size]:
    """The keyword lengths (`h=8`, `h=heads` with `heads: Dim[H]`); a `**dict` makes them unreadable."""
    ctx = call.ctx
    out: dict[str, Size] = {}
    for index, name in enumerate(ctx.callee_arg_names):
        if name != formal:
            continue
        for arg_name, arg_type, expr, kind in zip(
            ctx.arg_names[index], ctx.arg_types[index], ctx.args[index], ctx.arg_kinds[index]
        ):
            if kind == ARG_STAR2:
                parsed = _parsed_shape(call, expr)
                if parsed is None or parsed.keys() & out.keys():
                    raise NotKnown
                out.update(parsed)
            elif arg_name is None or arg_name in out:
                raise NotKnown
            else:
                out[arg_name] = call.size_of(Actual(arg_type, expr, kind))
    return out


def _parsed_shape(call: Call, expr: Expression) -> dict[str, Size] | None:
    """The lengths `**parse_shape(y, "b _ h w")` passes on, read from the call itself; None if unreadable.

    Only the call expression is read: a dict that `parse_shape` returned earlier may have been
    changed since.  An error in the pattern is reported by `parse_shape`'s own hook.
    """
    if not (isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr)):
        return None
    if expr.callee.fullname != _EINOPS + "parse_shape" or len(expr.args) != 2 or expr.arg_kinds != [ARG_POS, ARG_POS]:
        return None
    tensor_type, pattern_type = call.type_of(expr.args[0]), call.type_of(expr.args[1])
    if tensor_type is None or pattern_type is None:
        return None
    pattern = call.str_of(Actual(pattern_type, expr.args[1], ARG_POS))
    if pattern is None:
        return None
    try:
        return rules.parse_shape(call.scope.tensor_shape(tensor_type), pattern)
    except (NotATensor, ShapeRuleError):
        return None


def _tensor(call: Call, actual: Actual) -> MaybeShape:
    try:
        return call.scope.tensor_shape(actual.type)
    except NotATensor:
        raise NotKnown from None


def _input(call: Call) -> MaybeShape:
    """The shape einops works on: the tensor, or a list or tuple of tensors stacked along a new first dim."""
    actuals = call.actuals("tensor")
    if len(actuals) != 1 or actuals[0].kind in (ARG_STAR, ARG_STAR2):
        raise NotKnown
    actual = actuals[0]
    t = get_proper_type(actual.type)
    if isinstance(t, TupleType) or isinstance(t, Instance) and t.type.fullname in (_names.LIST, _names.TUPLE):
        shapes = call.sequence_shapes(actual)
        if shapes is not None:
            return stack(shapes, 0)
        return stack_repeated(call.element_shape("tensor"), None, 0)
    return _tensor(call, actual)


def _rearrange(call: Call) -> Type:
    return call.tensor(rules.rearrange(_input(call), _pattern(call, "pattern"), _lengths(call)))


def _repeat(call: Call) -> Type:
    return call.tensor(rules.repeat(_input(call), _pattern(call, "pattern"), _lengths(call)))


def _reduce(call: Call) -> Type:
    reduction = call.actuals("reduction")
    if not reduction:
        raise NotKnown
    operation = call.str_of(reduction[0])
    if operation is None and _is_str(reduction[0].type):
        raise NotKnown  # a reduction named by a string not known here ("repeat" adds axes)
    return call.tensor(rules.reduce(_input(call), _pattern(call, "pattern"), operation, _lengths(call)))


def _is_str(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname == _names.STR


def _einsum(call: Call) -> Type:
    """`einops.einsum(x, y, "b i d, b j d -> b i j")`: the tensors first, the pattern last."""
    actuals = call.positional()
    if len(actuals) < 2 or any(a.kind in (ARG_STAR, ARG_STAR2) for a in actuals):
        raise NotKnown
    pattern = call.str_of(actuals[-1])
    if pattern is None:
        raise NotKnown
    return call.tensor(rules.einsum(pattern, [_tensor(call, a) for a in actuals[:-1]]))


def _pack(call: Call) -> Type:
    default = get_proper_type(call.default)
    if not isinstance(default, TupleType) or len(default.items) != 2:
        raise NotKnown
    pattern = _pattern(call, "pattern")
    shapes = call.tensor_list_arg("tensors")
    if shapes is None:
        # a list of unknown length: every tensor has the element's shape, their packed lengths add up to ?
        packed, _ = rules.pack([call.element_shape("tensors")], pattern)
        if packed is not None:
            before, _ = rules.pack_axes(pattern, "pack")
            packed = (*packed[:before], None, *packed[before + 1 :])
    else:
        packed, _ = rules.pack(shapes, pattern)
    return default.copy_modified(items=[call.tensor(packed), default.items[1]])


def _unpack(call: Call) -> Type:
    """`unpack(x, ps, pattern)`: a tuple of the pieces where it is unpacked at once, else a list."""
    actuals, tensor = call.actuals("packed_shapes"), call.actuals("tensor")
    if not actuals or not tensor:
        raise NotKnown
    uses = _Uses(call.context, _local_var(actuals[0].expr), _body(call))
    pieces = _packed_shapes(call, actuals[0], uses)
    shapes = rules.unpack(_tensor(call, tensor[0]), pieces, _pattern(call, "pattern"))
    if shapes is None:
        raise NotKnown
    if uses.unpacked_at_once:
        fallback = call.scope.instance(_names.LIST, [call.tensor(None)])
        return TupleType([call.tensor(s) for s in shapes], fallback)
    # a list that the code may change: one shape for all its items, where they share it
    common = shapes[0] if shapes and all(_same_shape(shapes[0], s) for s in shapes) else None
    return call.scope.instance(_names.LIST, [call.tensor(common)])


def _same_shape(a: MaybeShape, b: MaybeShape) -> bool:
    if a is None or b is None or len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if isinstance(x, Variadic) or isinstance(y, Variadic):
            if x != y:
                return False
        elif not same(x, y):
            return False
    return True


def _packed_shapes(call: Call, actual: Actual, uses: _Uses) -> list[MaybeShape] | None:
    """The pieces' shapes: a literal list of shapes, a tuple, or what the one `pack` that defined them packed.

    A name is read through its definition `x, ps = pack(tensors, pattern)` only where that is its
    one definition and every other use of it is as the packed shapes of an `unpack`: nothing can
    have changed the list in between.
    """
    expr = actual.expr
    if isinstance(expr, (ListExpr, TupleExpr)) and not any(isinstance(i, StarExpr) for i in expr.items):
        pieces: list[MaybeShape] = []
        for item in expr.items:
            item_type = call.type_of(item)
            sizes = call.sequence_of(Actual(item_type, item, actual.kind)) if item_type is not None else None
            pieces.append(None if sizes is None else tuple(sizes))
        return pieces
    t = get_proper_type(actual.type)
    if isinstance(t, TupleType):
        return [_sizes_of(call, item) for item in t.items]
    packing = uses.packing()
    if packing is None:
        return None
    arguments = dict(zip(("tensors", "pattern"), packing.args[:2] if packing.arg_kinds[:2] == [ARG_POS] * 2 else []))
    arguments.update({n: a for n, a in zip(packing.arg_names, packing.args) if n is not None})
    tensors, pattern_expr = arguments.get("tensors"), arguments.get("pattern")
    if tensors is None or pattern_expr is None:
        return None
    tensors_type, pattern_type = call.type_of(tensors), call.type_of(pattern_expr)
    if tensors_type is None or pattern_type is None:
        return None
    pattern = call.str_of(Actual(pattern_type, pattern_expr, ARG_POS))
    try:
        shapes = call.sequence_shapes(Actual(tensors_type, tensors, ARG_POS))
        if pattern is None or shapes is None:
            return None
        return rules.pack(shapes, pattern)[1]
    except (NotKnown, ShapeRuleError):
        return None  # `pack`'s own hook reports its errors


def _sizes_of(call: Call, t: Type) -> MaybeShape:
    p = get_proper_type(t)
    if not isinstance(p, TupleType):
        return None
    return tuple(call.scope.size_of(item) for item in p.items)


def _local_var(expr: Expression) -> Var | None:
    if isinstance(expr, NameExpr) and expr.kind == LDEF and isinstance(expr.node, Var):
        return expr.node
    return None


def _body(call: Call) -> Node | None:
    """The outermost function being checked (the module at module level), for `_Uses` to read."""
    checker = call.api
    if not isinstance(checker, TypeChecker):
        return None
    function = checker.scope.top_level_function()
    return function if function is not None else checker.tree


class _Uses:
    """How a function uses an `unpack` call and the local variable holding its packed shapes."""

    def __init__(self, call: Context, var: Var | None, body: Node | None) -> None:
        nodes = _nodes(body) if body is not None else []
        # the call is the value of `a, b = unpack(...)`
        self.unpacked_at_once = any(
            isinstance(n, AssignmentStmt) and n.rvalue is call and len(n.lvalues) == 1 and _unpacks(n.lvalues[0])
            for n in nodes
        )
        self.var = var
        self.definitions: list[CallExpr] = []  # the `pack(...)` of each `..., ps = pack(...)`
        self.other_uses = 0
        if var is None:
            return
        allowed: set[int] = set()  # the names defined by a `pack`, or passed as an `unpack`'s packed shapes
        for n in nodes:
            if isinstance(n, AssignmentStmt) and len(n.lvalues) == 1 and _is_call_to(n.rvalue, _PACKING + "pack"):
                target = n.lvalues[0]
                if isinstance(target, (TupleExpr, ListExpr)) and len(target.items) == 2:
                    name = target.items[1]
                    if isinstance(name, NameExpr) and name.node is var and isinstance(n.rvalue, CallExpr):
                        self.definitions.append(n.rvalue)
                        allowed.add(id(name))
            elif isinstance(n, CallExpr) and _is_call_to(n, _PACKING + "unpack"):
                for index, (kind, arg_name) in enumerate(zip(n.arg_kinds, n.arg_names)):
                    if arg_name == "packed_shapes" or kind == ARG_POS and index == 1:
                        allowed.add(id(n.args[index]))
        self.other_uses = sum(isinstance(n, NameExpr) and n.node is var and id(n) not in allowed for n in nodes)

    def packing(self) -> CallExpr | None:
        """The `pack(...)` call that is the variable's one definition, if nothing else uses it."""
        if self.var is None or self.other_uses or len(self.definitions) != 1:
            return None
        return self.definitions[0]


_NOT_CHILDREN = frozenset({"node", "def_var", "info", "original_def", "analyzed", "expanded", "var"})
"""Attributes of mypy's nodes that refer to definitions elsewhere (or repeat a node's children)."""


def _nodes(root: Node) -> list[Node]:
    """Every statement and expression in `root`, nested functions and classes included."""
    out: list[Node] = []
    stack: list[Node] = [root]
    while stack:
        node = stack.pop()
        out.append(node)
        for attribute in _attributes(type(node)):
            value = getattr(node, attribute, None)
            items = value if isinstance(value, (list, tuple)) else (value,)
            stack.extend(item for item in items if isinstance(item, Node))
    return out


def _attributes(cls: type) -> tuple[str, ...]:
    names = getattr(cls, "__mypyc_attrs__", None)  # mypy compiled by mypyc
    if names is None:
        names = tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))
    return tuple(name for name in names if name not in _NOT_CHILDREN)


def _unpacks(target: Expression) -> bool:
    return isinstance(target, (TupleExpr, ListExpr))


def _is_call_to(expr: Expression, fullname: str) -> bool:
    return isinstance(expr, CallExpr) and isinstance(expr.callee, RefExpr) and expr.callee.fullname == fullname


def _parse_shape(call: Call) -> Type:
    """`parse_shape(x, pattern)` keeps einops' type (a dict); the hook reports a pattern that does not fit."""
    rules.parse_shape(_tensor(call, call.actuals("x")[0]) if call.actuals("x") else None, _pattern(call, "pattern"))
    return call.default


FUNCTIONS: dict[str, Handler] = {
    _EINOPS + "rearrange": _rearrange,
    _EINOPS + "reduce": _reduce,
    _EINOPS + "repeat": _repeat,
    _EINOPS + "einsum": _einsum,
    _PACKING + "pack": _pack,
    _PACKING + "unpack": _unpack,
    _EINOPS + "parse_shape": _parse_shape,
}


SIGNATURES = frozenset(FUNCTIONS) - {_EINOPS + "parse_shape"}


def signature_hook(ctx: FunctionSigContext) -> FunctionLike:
    """einops' signature with its type variable erased from the return type.

    einops returns "the input's type" (`Tensor -> Tensor`), and mypy solves that type variable
    from the type context too where the context is a generic type: the declared type in
    `y: Tensor[B, N, D] = rearrange(x, ...)`, an enclosing call's parameter, the lvalues of
    `x, ps = pack(...)`.  It would then check the tensors against the result's shape.  The
    return hook gives the result; the type variable is solved from the arguments alone.
    """
    return ctx.default_signature.copy_modified(ret_type=erase_typevars(ctx.default_signature.ret_type))


# -- layers ---------------------------------------------------------------------------------------

CONSTRUCTORS = frozenset({_LAYERS + "Rearrange", _LAYERS + "Reduce"})


def constructor_hook(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    """`Rearrange(pattern, **lengths)` is `Rearrange[Literal[pattern], Literal[name], size, ...]`."""
    default = get_proper_type(ctx.default_return_type)
    if not isinstance(default, Instance) or not default.type.type_vars:
        return ctx.default_return_type  # einops' own class: tyr's stub is not in this build
    name = fullname.rpartition(".")[2]
    call = Call(ctx, Scope(lookup), name)
    scope = call.scope
    try:
        pattern = _pattern(call, "pattern")
        lengths = _lengths(call)
    except NotKnown:
        return ctx.default_return_type
    args: list[Type] = [LiteralType(pattern, scope.instance(_names.STR))]
    operation: str | None = "rearrange"
    if name == "Reduce":
        operation = call.str_arg("reduction")
        args.append(UNKNOWN if operation is None else LiteralType(operation, scope.instance(_names.STR)))
    if operation is not None:
        try:
            rules.check_layer(name, pattern, operation, list(lengths))
        except ShapeRuleError as err:
            call.api.fail(str(err), call.context, code=_errors.SHAPE)
            return ctx.default_return_type
    for axis, size in lengths.items():
        args += [LiteralType(axis, scope.instance(_names.STR)), scope.size_type(size)]
    return default.copy_modified(args=args)


def _layer_forward(kind: str) -> Callable[[Module, Sequence[Type]], Type]:
    def forward(module: Module, inputs: Sequence[Type]) -> Type:
        args = _flat(module.args)
        if not args:
            raise NotKnown
        pattern = _literal_str(args[0])
        if pattern is None:
            raise NotKnown
        operation: str | None = "rearrange"
        rest = args[1:]
        if kind == "Reduce":
            if not rest:
                raise NotKnown
            operation, rest = _literal_str(rest[0]), rest[1:]
            if operation is None:
                raise NotKnown
        if len(rest) % 2:
            raise NotKnown
        lengths: dict[str, Size] = {}
        for name_type, size_type in zip(rest[::2], rest[1::2]):
            name = _literal_str(name_type)
            if name is None:
                raise NotKnown
            lengths[name] = module.scope.size_of(size_type)
        if not inputs:
            raise NotKnown
        try:
            shape = module.scope.tensor_shape(inputs[0])
        except NotATensor:
            raise NotKnown from None
        if operation == "rearrange":
            return module.scope.tensor_type(rules.rearrange(shape, pattern, lengths, layer=True))
        return module.scope.tensor_type(rules.reduce(shape, pattern, operation, lengths, layer=True))

    return forward


def _flat(args: Sequence[Type]) -> list[Type]:
    """A variadic generic's type arguments with its `*tuple[...]` spliced in; empty when their number is unknown."""
    out: list[Type] = []
    for arg in args:
        if isinstance(arg, UnpackType):
            inner = get_proper_type(arg.type)
            if not isinstance(inner, TupleType):
                return []
            out.extend(_flat(inner.items))
        else:
            out.append(arg)
    return out


def _literal_str(t: Type) -> str | None:
    p = get_proper_type(t)
    if isinstance(p, LiteralType) and isinstance(p.value, str):
        return p.value
    return None


LAYER_FORWARDS = {_LAYERS + "Rearrange": _layer_forward("Rearrange"), _LAYERS + "Reduce": _layer_forward("Reduce")}
