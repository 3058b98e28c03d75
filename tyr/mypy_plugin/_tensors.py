"""`torch.Tensor` methods, operators and attributes: each result shape comes from a rule in `tyr.shape_rules`.

A method hook receives the receiver's type (`Tensor[B, T, C]`) and the
arguments; the handler for the method reads the arguments it needs (`Call`),
calls the shape rule, and builds the result type.  A rule's `ShapeRuleError`
becomes a `tyr-shape` error on the line of the call; an argument that cannot be
read statically (`view(*sizes)` with a list) makes the result the bare `Tensor`.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.checker import TypeChecker
from mypy.nodes import (
    ARG_POS,
    EllipsisExpr,
    Expression,
    ListExpr,
    NameExpr,
    SliceExpr,
    StarExpr,
    TupleExpr,
    Var,
)
from mypy.plugin import AttributeContext, MethodContext
from mypy.types import (
    AnyType,
    FunctionLike,
    Instance,
    LiteralType,
    TupleType,
    Type,
    TypeType,
    UnionType,
    get_proper_type,
)

from tyr import shape_rules as rules
from tyr._symbolic import const
from tyr.mypy_plugin import _extra_ops, _fft, _linalg, _more_ops, _names
from tyr.mypy_plugin._args import MISSING, Actual, Call, NotKnown, is_int_like
from tyr.mypy_plugin._dtypes import Binding, Bindings, index_dtype, local_bindings
from tyr.mypy_plugin._errors import SHAPE
from tyr.mypy_plugin._jaxtyping import declared_index_dtype
from tyr.mypy_plugin._receivers import union_receiver
from tyr.mypy_plugin._types import Lookup, NotATensor, Scope, join_shapes
from tyr.shape_rules import MaybeShape, ShapeRuleError, Variadic, creation
from tyr.shape_rules import nn_functional as nnf
from tyr.shape_rules.core import locate

Handler = Callable[[Call, MaybeShape], Type]


def method_hook(ctx: MethodContext, method: str, lookup: Lookup) -> Type:
    """The result of `x.method(...)` for a tensor `x` (the default result when no rule applies)."""
    handler = METHODS.get(method)
    if handler is None:
        return ctx.default_return_type
    scope = Scope(lookup)
    try:
        shape = scope.tensor_shape(ctx.type)
    except NotATensor:
        return ctx.default_return_type
    call = Call(ctx, scope, _op_name(method))
    others = [_silent_result(Call(ctx, scope, call.op), method, handler, other) for other in _other_members(ctx, scope)]
    passing = [result for result in others if result is not None]
    if not passing:
        # (read again under a guard's narrowing: `_guards`)
        return call.result(lambda: handler(call, scope.tensor_shape(ctx.type) if scope.narrowed else shape), method)
    # The value may be another member, for which the call is fine: an error here is not proven.  Each
    # member's call gives what all of them share, so a loop that rebinds the name (`v = v.unsqueeze(0)`)
    # leaves no union that grows by a member each time mypy checks its body again.
    mine = _silent_result(call, method, handler, shape)
    if mine is None:  # torch raises for this member: the value is one of the others
        mine, passing = passing[0], passing[1:]
    return _joined(scope, mine, passing)


def _other_members(ctx: MethodContext, scope: Scope) -> list[MaybeShape]:
    """The shapes of the other tensors a method's receiver may be: any of them may be the value."""
    whole = union_receiver(ctx)
    if whole is None:
        return []
    member = get_proper_type(ctx.type)
    others = []
    for item in whole.items:
        if get_proper_type(item) != member:
            try:
                others.append(scope.tensor_shape(item))
            except NotATensor:
                continue  # (`None`, say: mypy's own error)
    return others


def _silent_result(call: Call, method: str, handler: Handler, shape: MaybeShape) -> Type | None:
    """The call's result for a receiver of `shape`, None where the rule fails for it; nothing is reported."""
    try:
        return call.attempt(lambda: handler(call, shape), method)
    except ShapeRuleError:
        return None


def _joined(scope: Scope, mine: Type, others: list[Type]) -> Type:
    """What a result shares with the results for the other members of a union receiver: the sizes
    all of them agree on (`Scope.tensor_shape`'s join), item by item for a tuple of tensors."""
    p = get_proper_type(mine)
    rest = [get_proper_type(o) for o in others]
    if isinstance(p, TupleType):
        if not all(isinstance(o, TupleType) and len(o.items) == len(p.items) for o in rest):
            return mine
        items = [_joined(scope, item, [o.items[i] for o in rest if isinstance(o, TupleType)]) for i, item in enumerate(p.items)]
        return p.copy_modified(items=items)
    if not (isinstance(p, Instance) and p.type.has_base(_names.TENSOR)):
        return mine
    try:
        shapes = [scope.tensor_shape(t) for t in (p, *rest)]
    except NotATensor:
        return mine
    return p.copy_modified(args=scope.shape_args(join_shapes(shapes)))


def receiver_first(method: str, names: tuple[str, ...] = ("input", "self", "tensor")) -> Callable[[Call], Type]:
    """`x.method(...)` written with the receiver as the argument named one of `names`: `torch.amax(x, 1)`,
    `torch.Tensor.amax(x, 1)`."""
    handler = METHODS[method]

    def run(call: Call) -> Type:
        actuals = call.actuals(*names)
        if not actuals:
            raise NotKnown
        shape = call.shape_of(actuals[0])
        call.drop(*names)
        return handler(call, shape)

    return run


def unbound_method(fullname: str) -> str | None:
    """The method of `method of Class`, mypy's name for a method called on its class (`torch.Tensor.amax(x, dim=1)`),
    where the class may be a tensor class (`is_tensor_class_object` tells at the call) and the method has a handler."""
    method, of, owner = fullname.partition(" of ")
    return method if of and owner in ("Tensor", "TensorBase") and method in METHODS else None


def unbound_method_hook(ctx: MethodContext, method: str, lookup: Lookup) -> Type:
    """`torch.Tensor.amax(x, dim=1)`: `x.amax(dim=1)`, its receiver the argument for `self` (unnamed, `#0`,
    where mypy reads the parameters as positional-only: `torch.Tensor.__add__(x, y)`)."""
    call = Call(ctx, Scope(lookup), _op_name(method))
    return call.result(lambda: receiver_first(method, ("self", "#0"))(call), method)


def is_tensor_class_object(t: Type) -> bool:
    """Whether `t` is the type of a tensor class itself (`torch.Tensor`, `nn.Parameter`), what a method is called on
    unbound."""
    p = get_proper_type(t)
    if isinstance(p, FunctionLike) and p.is_type_obj():
        return p.type_object().has_base(_names.TENSOR_BASE)
    return isinstance(p, TypeType) and isinstance(p.item, Instance) and p.item.type.has_base(_names.TENSOR_BASE)


SCALAR_COMPARISONS = frozenset(
    f"builtins.{scalar}.{method}" for scalar in ("int", "float", "bool") for method in ("__eq__", "__ne__")
)


def scalar_comparison_hook(ctx: MethodContext, lookup: Lookup) -> Type:
    """`2 == x` for a tensor `x`: Python falls back to `x.__eq__(2)`, a tensor of `x`'s shape, not a bool."""
    if len(ctx.arg_types) != 1 or len(ctx.arg_types[0]) != 1:
        return ctx.default_return_type
    scope = Scope(lookup)
    try:
        shape = scope.tensor_shape(ctx.arg_types[0][0])
    except NotATensor:
        return ctx.default_return_type
    return scope.tensor_type(shape)


def _op_name(method: str) -> str:
    return _OPERATORS.get(method, method)


# -- attributes -----------------------------------------------------------------------------------


def attribute_hook(ctx: AttributeContext, attribute: str, lookup: Lookup) -> Type:
    """`x.shape`, `x.T`, `x.mT`, `x.H`, `x.mH`, `x.data`, `x.real`, `x.imag`, `x.grad`, `x.ndim` for a shaped `x`."""
    scope = Scope(lookup)
    try:
        shape = scope.tensor_shape(ctx.type)
    except NotATensor:
        return ctx.default_attr_type
    if shape is None:
        return ctx.default_attr_type
    try:
        if attribute == "shape":
            return size_tuple(scope, shape, ctx.default_attr_type)
        if attribute in ("T", "H"):
            return scope.tensor_type(rules.T(shape))
        if attribute in ("mT", "mH"):
            return scope.tensor_type(rules.mT(shape))
        if attribute in ("data", "real", "imag"):
            # assigned, it takes a tensor of any shape (`p.data = resized`; `x.real = y` broadcasts `y`)
            return ctx.default_attr_type if ctx.is_lvalue else scope.tensor_type(shape)
        if attribute == "grad":
            default = get_proper_type(ctx.default_attr_type)
            if isinstance(default, UnionType):
                items = [scope.tensor_type(shape) if _is_tensor_type(i) else i for i in default.items]
                return UnionType.make_union(items)
        if attribute == "ndim" and rules.core.rank(shape) is not None:
            return scope.int_literal(len(shape))
    except ShapeRuleError as err:
        ctx.api.fail(scope.render(str(err)), ctx.context, code=SHAPE)
        return scope.tensor_type(None)
    return ctx.default_attr_type


NAMED_FIELDS: dict[str, tuple[str, ...]] = {
    **{
        f"torch.return_types.{name}": ("values", "indices")
        for name in ("max", "min", "topk", "sort", "kthvalue", "median", "nanmedian", "mode", "cummax", "cummin")
    },
    "torch.return_types.aminmax": ("min", "max"),
    "torch.return_types._linalg_eigh": ("eigenvalues", "eigenvectors"),
    "torch.return_types.slogdet": ("sign", "logabsdet"),
    "torch.return_types.qr": ("Q", "R"),
    "torch.return_types._linalg_svd": ("U", "S", "Vh"),
    "torch.linalg._linalg_lstsq": ("solution", "residuals", "rank", "singular_values"),
}
"""The named tuples of tensors that tyr types item by item, and their fields in order."""


def named_field_hook(ctx: AttributeContext, index: int) -> Type:
    """`x.max(dim=1).values`: the field of a result tuple (`torch.return_types.max`) that tyr typed."""
    result = get_proper_type(ctx.type)
    if isinstance(result, TupleType) and index < len(result.items):
        return result.items[index]
    return ctx.default_attr_type


def _is_tensor_type(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and p.type.fullname == _names.TENSOR


def size_tuple(scope: Scope, shape: MaybeShape, default: Type) -> Type:
    """`torch.Size` as a tuple of `Dim`s (`tuple[Dim[B], Literal[768]]`), for `.shape` and `.size()`."""
    if shape is None or any(isinstance(s, Variadic) for s in shape):
        return default
    fallback = get_proper_type(default)
    if not isinstance(fallback, Instance):
        fallback = scope.instance(_names.SIZE)
    return TupleType([scope.dim_value_type(s) for s in shape if not isinstance(s, Variadic)], fallback)


# -- handlers -------------------------------------------------------------------------------------


def _same(call: Call, shape: MaybeShape) -> Type:
    if not _returns_tensor(call):
        return call.default
    return call.tensor(shape)


def _returns_tensor(call: Call) -> bool:
    """Whether torch's own signature returns a tensor here (or is untyped, as `Tensor.norm` is)."""
    default = get_proper_type(call.default)
    return _is_tensor_type(default) or isinstance(default, AnyType)


def _other(call: Call) -> MaybeShape:
    actuals = call.positional()
    if not actuals:
        raise NotKnown
    return call.shape_of(actuals[0])


def _binary(call: Call, shape: MaybeShape) -> Type:
    if not _returns_tensor(call):
        return call.default
    return call.tensor(rules.broadcast_shapes(shape, _other(call), op=call.op))


def _reflected(call: Call, shape: MaybeShape) -> Type:
    if not _returns_tensor(call):
        return call.default
    return call.tensor(rules.broadcast_shapes(_other(call), shape, op=call.op))


def _in_place(call: Call, shape: MaybeShape) -> Type:
    if not _returns_tensor(call):
        return call.default
    rules.broadcasts_to(_other(call), shape, op=call.op)
    return call.tensor(shape)


def _matmul(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.matmul(shape, _other(call), op=call.op))


def _rmatmul(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.matmul(_other(call), shape, op=call.op))


def _product(rule: Callable[..., MaybeShape], *names: str) -> Handler:
    """`x.mm(y)`, `x.bmm(y)`, `x.mv(v)`, `x.dot(y)`: the receiver and one tensor argument."""

    def handler(call: Call, shape: MaybeShape) -> Type:
        return call.tensor(rule(shape, call.tensor_arg(*names), op=call.op))

    return handler


def _add_product(rule: Callable[..., MaybeShape], first: tuple[str, ...], second: tuple[str, ...]) -> Handler:
    """`x.addmm(a, b)`, `x.baddbmm(a, b)`, ...: the receiver plus a product of two tensor arguments."""

    def handler(call: Call, shape: MaybeShape) -> Type:
        a, b = call.tensor_arg(*first), call.tensor_arg(*second)
        return call.tensor(rule(shape, a, b, op=call.op, in_place=call.op.endswith("_")))

    return handler


def _dim(call: Call) -> int:
    dim = call.int_arg("dim")
    if not isinstance(dim, int):
        raise NotKnown
    return dim


def _gather(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.gather(shape, _dim(call), call.tensor_arg("index"), op=call.op))


def _take_along_dim(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim", default=None)
    if dim is not None and not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.take_along_dim(shape, call.tensor_arg("indices"), dim))


def _index_select(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.index_select(shape, _dim(call), call.tensor_arg("index"), op=call.op))


def _scatter(call: Call, shape: MaybeShape) -> Type:
    """`scatter(dim, index, src)` / `(dim, index, value)`, `scatter_add`, `scatter_reduce` (and in place)."""
    dim, index = _dim(call), call.tensor_arg("index")
    if call.given("src"):
        out = rules.scatter(shape, dim, index, call.tensor_arg("src"), op=call.op)
    else:
        out = rules.scatter(shape, dim, index, src_is_tensor=False, op=call.op)
    return call.tensor(out)


def _index_add(call: Call, shape: MaybeShape) -> Type:
    """`index_add`, `index_copy`, and `index_reduce`, which checks as `index_add` does."""
    rule = rules.index_copy if call.op.startswith("index_copy") else rules.index_add
    return call.tensor(rule(shape, _dim(call), call.tensor_arg("index"), call.tensor_arg("source"), op=call.op))


def _index_fill(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.index_fill(shape, _dim(call), call.tensor_arg("index"), _fill_value(call), op=call.op))


def _fill(call: Call, shape: MaybeShape) -> Type:
    """`x.fill_(value)`, `torch.fill(x, value)`: `x`'s shape, a tensor value 0-d."""
    return call.tensor(rules.fill(shape, _fill_value(call), op=call.op))


def _fill_value(call: Call) -> MaybeShape:
    """The shape of a fill's `value`: `()` for a number (or anything not a tensor), None where not given."""
    actuals = call.actuals("value")
    if not actuals:
        return None
    try:
        return call.scope.tensor_shape(actuals[0].type)
    except NotATensor:
        return ()


def _ints_or_int(call: Call, *names: str, default: object = MISSING) -> int | tuple[int, ...] | object:
    """An int or a sequence of ints (`dims=(0, 1)`, `movedim(0, -1)`); `default` when not given."""
    actuals = call.actuals(*names)
    if not actuals:
        return default
    if len(actuals) == 1:
        value = call.int_of(actuals[0])
        if value is not None:
            return value
    ints = call.ints_arg(*names)
    if ints is None:
        raise NotKnown
    return tuple(ints)


def _flip(call: Call, shape: MaybeShape) -> Type:
    if call.op in ("fliplr", "flipud"):
        return call.tensor(rules.flip_lr(shape, up_down=call.op == "flipud"))
    dims = call.ints_arg("dims")
    if dims is None:
        raise NotKnown
    return call.tensor(rules.flip(shape, dims, op=call.op))


def _some_ints(call: Call, name: str) -> rules.Ints | None:
    """An int or a sequence of ints whose values may be unknown (`roll(x, (-s, -s), (1, 2))`); None when
    not given; `UNKNOWN` for a sequence of unknown length."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return None
    if len(actuals) == 1 and is_int_like(actuals[0].type):
        value = call.int_of(actuals[0])
        return (rules.UNKNOWN,) if value is None else value
    items = call.sizes_arg(name)
    if items is None:
        return rules.UNKNOWN
    return tuple(rules.UNKNOWN if s is None or s.const_value is None else s.const_value for s in items)


def _roll(call: Call, shape: MaybeShape) -> Type:
    """`roll` keeps the shape; its shifts count, and only their number."""
    shifts = _some_ints(call, "shifts")
    if shifts is None:
        raise NotKnown
    return call.tensor(rules.roll(shape, shifts, _some_ints(call, "dims")))


def _rot90(call: Call, shape: MaybeShape) -> Type:
    k = call.int_arg("k", default=1)
    dims = _ints_or_int(call, "dims", default=(0, 1))
    if not isinstance(k, int) or not isinstance(dims, tuple):
        raise NotKnown
    return call.tensor(rules.rot90(shape, k, dims))


def _movedim(call: Call, shape: MaybeShape) -> Type:
    source = _ints_or_int(call, "source")
    destination = _ints_or_int(call, "destination")
    return call.tensor(rules.movedim(shape, source, destination))  # type: ignore[arg-type]


def _select(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(_selected(call, shape))


def _selected(call: Call, shape: MaybeShape) -> MaybeShape:
    index = call.actuals("index")
    if not index:
        raise NotKnown
    return rules.select(shape, _dim(call), call.size_of(index[0]), op=call.op)


def _narrow(call: Call, shape: MaybeShape) -> Type:
    start, length = call.actuals("start"), call.actuals("length")
    if not start or not length:
        raise NotKnown
    return call.tensor(rules.narrow(shape, _dim(call), call.size_of(start[0]), call.size_of(length[0]), op=call.op))


def _diagonal(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(_diagonal_of(call, shape))


def _diagonal_of(call: Call, shape: MaybeShape) -> MaybeShape:
    offset = call.int_arg("offset", default=0)
    dim1 = call.int_arg("dim1", default=0)
    dim2 = call.int_arg("dim2", default=1)
    if not (isinstance(offset, int) and isinstance(dim1, int) and isinstance(dim2, int)):
        raise NotKnown
    return rules.diagonal(shape, offset, dim1, dim2, op=call.op)


def _sliced(call: Call, shape: MaybeShape) -> MaybeShape:
    """`slice_scatter`'s view: `x[..., start:end:step]` along `dim` (0 when not given)."""
    dim = call.int_arg("dim", default=0)
    if not isinstance(dim, int):
        raise NotKnown
    start, end, step = (call.actuals(name) for name in ("start", "end", "step"))
    bounds = [None if not a or call.is_none(a[0]) else _bound(call, a[0].expr) for a in (start, end, step)]
    return rules.slice_along(shape, dim, bounds[0], bounds[1], 1 if bounds[2] is None else bounds[2], op=call.op)


def _scatter_view(view: Callable[[Call, MaybeShape], MaybeShape]) -> Handler:
    """`x.select_scatter(src, dim, index)`, `slice_scatter`, `diagonal_scatter`: `src` fills the view of `x`
    that `select` / `slice` / `diagonal` take with the same arguments."""

    def handler(call: Call, shape: MaybeShape) -> Type:
        src = call.tensor_arg("src")
        return call.tensor(rules.scatter_view(shape, src, view(call, shape), op=call.op))

    return handler


def _unfold(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dimension")
    size, step = call.actuals("size"), call.actuals("step")
    if not isinstance(dim, int) or not size or not step:
        raise NotKnown
    return call.tensor(rules.unfold(shape, dim, call.size_of(size[0]), call.size_of(step[0])))


def _repeat_interleave(call: Call, shape: MaybeShape) -> Type:
    repeats = call.actuals("repeats")
    if not repeats:
        raise NotKnown
    dim = call.int_arg("dim", default=None)
    if dim is not None and not isinstance(dim, int):
        raise NotKnown
    output = call.actuals("output_size")
    output_size = call.size_of(output[0]) if output and not call.is_none(output[0]) else None
    if call.is_tensor(repeats[0]):  # counts per element
        counts = call.shape_of(repeats[0])
        return call.tensor(rules.repeat_interleave_by(shape, counts, dim, output_size))
    return call.tensor(rules.repeat_interleave(shape, call.size_of(repeats[0]), dim, output_size))


def _tile(call: Call, shape: MaybeShape) -> Type:
    reps = call.sizes_arg("dims")
    if reps is None:
        raise NotKnown
    return call.tensor(rules.tile(shape, reps))


def _broadcast_with(*names: str) -> Handler:
    """`x.clamp(min, max)`, `x.lerp(end, weight)`, `x.addcmul(t1, t2)`: the receiver broadcast with each tensor
    argument among `names` (numbers and None leave the shape alone); in place, they broadcast to the receiver."""

    def handler(call: Call, shape: MaybeShape) -> Type:
        if not _returns_tensor(call):
            return call.default
        others = []
        for name in names:
            actuals = call.actuals(name)
            if actuals and not call.is_none(actuals[0]):
                others.append(call.shape_of(actuals[0]))
        if call.op.endswith("_"):
            for other in others:
                rules.broadcasts_to(other, shape, op=call.op)
            return call.tensor(shape)
        return call.tensor(rules.broadcast_shapes(shape, *others, op=call.op))

    return handler


def _multinomial(call: Call, shape: MaybeShape) -> Type:
    samples = call.actuals("num_samples")
    if not samples:
        raise NotKnown
    replacement = call.bool_arg("replacement", default=False)
    return call.tensor(rules.multinomial(shape, call.size_of(samples[0]), replacement))


def _view(call: Call, shape: MaybeShape) -> Type:
    if call.given("dtype"):
        return call.default
    sizes = call.sizes_arg("size", "shape")
    if sizes is None:
        raise NotKnown
    return call.tensor(rules.view(shape, sizes) if call.op == "view" else rules.reshape(shape, sizes))


def _as_other(rule: Callable[[MaybeShape, list[rules.Size]], MaybeShape]) -> Handler:
    def handler(call: Call, shape: MaybeShape) -> Type:
        other = _other(call)
        if other is None or any(isinstance(s, Variadic) for s in other):
            raise NotKnown
        return call.tensor(rule(shape, [s for s in other if not isinstance(s, Variadic)]))

    return handler


def _flatten(call: Call, shape: MaybeShape) -> Type:
    start = call.int_arg("start_dim", default=0)
    end = call.int_arg("end_dim", default=-1)
    assert isinstance(start, int) and isinstance(end, int)
    return call.tensor(rules.flatten(shape, start, end))


def _unflatten(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim")
    sizes = call.sizes_arg("sizes")
    if not isinstance(dim, int) or sizes is None:
        raise NotKnown
    return call.tensor(rules.unflatten(shape, dim, sizes))


def _transpose(call: Call, shape: MaybeShape) -> Type:
    dim0 = call.int_arg("dim0", "axis0")
    dim1 = call.int_arg("dim1", "axis1")
    if not isinstance(dim0, int) or not isinstance(dim1, int):
        raise NotKnown
    return call.tensor(rules.transpose(shape, dim0, dim1))


def _permute(call: Call, shape: MaybeShape) -> Type:
    dims = call.ints_arg("dims")
    if dims is None:
        raise NotKnown
    return call.tensor(rules.permute(shape, dims))


def _t(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.t(shape))


def _adjoint(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.mT(shape, op=call.op))


def _squeeze(call: Call, shape: MaybeShape) -> Type:
    dim = call.dims_arg("dim")
    return call.tensor(rules.squeeze(shape, dim))  # type: ignore[arg-type]


def _unsqueeze(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim")
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.unsqueeze(shape, dim))


def _sum_to_size(call: Call, shape: MaybeShape) -> Type:
    sizes = call.sizes_arg("size")
    if sizes is None:
        raise NotKnown
    return call.tensor(rules.sum_to_size(shape, sizes, op=call.op))


def _expand(call: Call, shape: MaybeShape) -> Type:
    """`x.expand(*sizes)`, `x.broadcast_to(sizes)` (and `torch.broadcast_to` / `expand_copy(x, sizes)`)."""
    sizes = call.sizes_arg("size", "sizes")
    if sizes is None:
        raise NotKnown
    return call.tensor(rules.expand(shape, sizes, op=call.op))


def _expand_as(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.broadcasts_to(shape, _other(call), op="expand_as"))


def _repeat(call: Call, shape: MaybeShape) -> Type:
    sizes = call.sizes_arg("repeats", "sizes")
    if sizes is None:
        raise NotKnown
    return call.tensor(rules.repeat(shape, sizes))


def _reduction(nonempty: bool = False, all_by_default: bool = True) -> Handler:
    def handler(call: Call, shape: MaybeShape) -> Type:
        if not _returns_tensor(call):
            return call.default
        dim = call.dims_arg("dim", "axis", default=None)
        keepdim = call.bool_arg("keepdim", default=False)
        op = _norm_kind(call) if call.op == "norm" else call.op
        return call.tensor(rules.reduce(shape, dim, keepdim, op=op, nonempty=nonempty))  # type: ignore[arg-type]

    return handler


def _norm_kind(call: Call) -> str:
    """`norm` is the Frobenius (matrix) norm for `p="fro"` or no `p`, at most 2 dims; a numeric `p`, or
    one not known statically, may be a vector norm over any dims."""
    actuals = call.actuals("p")
    if not actuals or call.is_none(actuals[0]) or call.str_of(actuals[0]) in ("fro", "nuc"):
        return "norm"
    return "vector_norm"


def _max_min(call: Call, shape: MaybeShape) -> Type:
    if call.given("other"):
        return _binary(call, shape)
    if call.given("dim"):
        dim = call.int_arg("dim")
        if not isinstance(dim, int):
            raise NotKnown
        keepdim = call.bool_arg("keepdim", default=False)
        pair = rules.max_along(shape, dim, keepdim, op=call.op)
        return call.tensors(pair, call.default)
    if not _returns_tensor(call):
        return call.default
    return call.tensor(rules.reduce(shape, None, False, op=call.op, nonempty=True))


def _median(call: Call, shape: MaybeShape) -> Type:
    """`x.median()` (all elements, a 0-d tensor), `x.median(dim)` / `nanmedian` / `mode` (values and indices)."""
    dim = call.int_arg("dim", default=-1 if call.op == "mode" else None)
    if dim is None:
        if not _returns_tensor(call):
            return call.default
        return call.tensor(rules.reduce(shape, None, False, op=call.op))
    if not isinstance(dim, int):
        raise NotKnown
    keepdim = call.bool_arg("keepdim", default=False)
    return call.tensors(rules.max_along(shape, dim, keepdim, op=call.op), call.default)


def _argmax(call: Call, shape: MaybeShape) -> Type:
    dim = call.optional_int_arg("dim")
    keepdim = call.bool_arg("keepdim", default=False)
    return call.tensor(rules.argmax(shape, dim, keepdim, op=call.op))


def _along(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim", default=-1 if call.op in ("sort", "argsort") else MISSING)
    if not isinstance(dim, int):
        raise NotKnown
    out = rules.along_dim(shape, dim, op=call.op)
    if _returns_tensor(call):
        return call.tensor(out)
    return call.tensors((out, out), call.default)


def _split(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim", default=0)
    assert isinstance(dim, int)
    actuals = call.actuals("split_size", "split_size_or_sections", "split_sizes")
    if not actuals:
        raise NotKnown
    sections = call.sequence_of(actuals[0])
    pieces = rules.split(shape, sections if sections is not None else call.size_of(actuals[0]), dim, op=call.op)
    return call.repeated(pieces, rules.piece(shape, dim, call.op))


def _chunk(call: Call, shape: MaybeShape) -> Type:
    chunks = call.int_arg("chunks")
    dim = call.int_arg("dim", default=0)
    if not isinstance(chunks, int) or not isinstance(dim, int):
        raise NotKnown
    return call.repeated(rules.chunk(shape, chunks, dim, op=call.op), rules.piece(shape, dim, call.op))


def _unbind(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim", default=0)
    assert isinstance(dim, int)
    return call.repeated(rules.unbind(shape, dim), rules.piece(shape, dim, call.op, keeps_dim=False))


def _topk(call: Call, shape: MaybeShape) -> Type:
    actuals = call.actuals("k")
    if not actuals:
        raise NotKnown
    dim = call.int_arg("dim", default=-1)
    assert isinstance(dim, int)
    return call.tensors(rules.topk(shape, call.size_of(actuals[0]), dim, op=call.op), call.default)


def _masked_fill(call: Call, shape: MaybeShape) -> Type:
    """`x.masked_fill(mask, value)`, `x.masked_scatter(mask, source)` (torch's check of `source`, that it holds
    enough values, depends on the mask's values)."""
    mask = call.tensor_arg("mask")
    value = _fill_value(call) if call.op.startswith("masked_fill") else ()
    if call.op.endswith("_"):
        rules.fill(shape, value, op=call.op)
        rules.broadcasts_to(mask, shape, op=call.op)
        return call.tensor(shape)
    return call.tensor(rules.masked_fill(shape, mask, value, op=call.op))


def _where(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.where(call.tensor_arg("condition"), shape, call.tensor_arg("other", "y")))


def _outer(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.outer(shape, _other(call)))


def _size(call: Call, shape: MaybeShape) -> Type:
    if shape is None:
        return call.default
    if not call.given("dim"):
        return size_tuple(call.scope, shape, call.default)
    dim = call.int_arg("dim")
    if not isinstance(dim, int):
        raise NotKnown
    pos = locate(shape, dim, "size", scalar_as_1d=False)
    if pos is None:
        return call.default
    if not shape:
        return call.default
    item = shape[pos]
    assert not isinstance(item, Variadic)
    return call.scope.dim_value_type(item)


def _new_sized(call: Call, shape: MaybeShape) -> Type:
    sizes = call.sizes_arg("size")
    if sizes is None:
        raise NotKnown
    return call.tensor(creation.from_sizes(sizes, op=call.op))


def _iter(call: Call, shape: MaybeShape) -> Type:
    """`for row in x`: the rows, each `x`'s shape without its first dim (of any size: `Parameter[Any, K, D]`)."""
    if shape is None or not shape:  # (a 0-d tensor cannot be iterated: torch raises, and mypy's `Any` stays)
        return call.default
    row = rules.piece(shape, 0, call.op, keeps_dim=False)
    if row is None:
        return call.default
    # (torch declares no type: `nk, nv = self.null_kv` in code without shapes stays `Any`)
    return _extra_ops.typed_in_code_with_shapes(call, call.api.named_generic_type("typing.Iterator", [call.tensor(row)]))


def _tril(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(nnf.tril(shape, op=call.op))


def _index(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.index(shape, _subscript(call)))


def _setitem(call: Call, shape: MaybeShape) -> Type:
    """`x[idx] = value`: a tensor value must fit `x[idx]`; nothing more is read unless the value is a tensor
    of known rank (a number always fits)."""
    values = call.actuals("value", "#1")
    if len(values) != 1:
        return call.default
    try:
        value = call.scope.tensor_shape(values[0].type)
    except NotATensor:
        return call.default
    if value is None or shape is None:
        return call.default
    rules.setitem(shape, _subscript(call), value)
    return call.default


def _index_put(call: Call, shape: MaybeShape) -> Type:
    """`x.index_put_((i, j), values)`, `x.index_put(...)`: the indices read as a subscript `x[i, j]` is (a tuple
    or list written out, each item a tensor), the values checked against it."""
    actuals = call.actuals("indices")
    if len(actuals) != 1 or not isinstance(actuals[0].expr, (TupleExpr, ListExpr)):
        return call.tensor(shape)
    parts = actuals[0].expr.items
    items = [it for it in (_index_item(call, part) for part in parts) if isinstance(it, rules.TensorIndex)]
    if len(items) != len(parts):
        return call.tensor(shape)  # (torch takes tensors only: mypy reports the rest)
    flags = call.actuals("accumulate")
    accumulate = call.bool_of(flags[0]) if flags else False
    return call.tensor(rules.index_put(shape, items, call.tensor_arg("values"), accumulate, op=call.op))


def _subscript(call: Call) -> list[rules.IndexItem]:
    """The items of a subscript `x[...]` (one item unless it is a tuple)."""
    actuals = call.actuals("indices", "#0")
    if len(actuals) != 1:
        raise NotKnown
    expr = actuals[0].expr
    parts = expr.items if isinstance(expr, TupleExpr) else [expr]
    return [_index_item(call, part) for part in parts]


def _index_item(call: Call, expr: Expression) -> rules.IndexItem:
    if isinstance(expr, SliceExpr):
        return slice(_bound(call, expr.begin_index), _bound(call, expr.end_index), _bound(call, expr.stride))
    if isinstance(expr, EllipsisExpr):
        return Ellipsis
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.None", "builtins.True", "builtins.False"):
        return None if expr.fullname == "builtins.None" else expr.fullname == "builtins.True"
    if isinstance(expr, (ListExpr, TupleExpr)):
        return _listed_index(call, expr)
    t = call.type_of(expr)
    if t is not None and _is_bool(t):
        return rules.TensorIndex((), "bool")  # a bool of unknown value: a new dim of size 1 or 0
    if t is not None:
        try:
            index_shape = call.scope.tensor_shape(t)
        except NotATensor:
            pass
        else:
            dtype = declared_index_dtype(call.api, expr) or index_dtype(expr, lambda e: _is_int_expr(call, e), _bindings(call))
            return rules.TensorIndex(index_shape, dtype)
    bound = _bound(call, expr)
    if bound is None:
        raise NotKnown
    return bound


def _listed_index(call: Call, expr: ListExpr | TupleExpr) -> rules.IndexItem:
    """A list of ints (or of bools) in a subscript is an index tensor (a mask) of its length."""
    dtypes = set()
    for item in expr.items:
        t = call.type_of(item)
        if t is None or isinstance(item, StarExpr):
            raise NotKnown
        if _is_bool(t):
            dtypes.add("bool")
        elif _is_int(t):
            dtypes.add("int")
        else:
            raise NotKnown  # a list of tensors, slices or lists: torch reads it as a tuple (deprecated)
    if len(dtypes) > 1:
        raise NotKnown
    return rules.TensorIndex((const(len(expr.items)),), "bool" if dtypes == {"bool"} else "int")


def _bindings(call: Call) -> Bindings:
    """The values each local variable of the function being checked is assigned (for an index's dtype)."""

    def find(name: NameExpr) -> list[Binding] | None:
        if not isinstance(call.api, TypeChecker) or not isinstance(name.node, Var):
            return None
        scope = call.api.scope.current_function() or call.api.tree
        return local_bindings(scope, name.node)

    return find


def _is_int_expr(call: Call, expr: Expression) -> bool:
    t = call.type_of(expr)
    return t is not None and _is_int(t) and not _is_bool(t)


def _is_bool(t: Type) -> bool:
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        return isinstance(p.value, bool)
    return isinstance(p, Instance) and p.type.fullname == _names.BOOL


def _bound(call: Call, expr: Expression | None) -> rules.Bound:
    if expr is None:
        return None
    t = call.type_of(expr)
    if t is None:
        raise NotKnown
    size = call.size_of(Actual(t, expr, ARG_POS))
    if size is not None:
        value = size.const_value
        return value if value is not None else size
    if _is_int(t):
        return rules.UNKNOWN
    raise NotKnown


def _is_int(t: Type) -> bool:
    p = get_proper_type(t)
    return isinstance(p, Instance) and (p.type.fullname in (_names.INT, "torch.SymInt") or p.type.has_base(_names.INT))


_SAME_SHAPE = ["abs", "absolute", "acos", "arccos", "acosh", "arccosh", "asin", "arcsin", "asinh", "arcsinh", "atan", "arctan", "atanh", "arctanh", "bernoulli", "bfloat16", "bool", "byte", "cauchy_", "ceil", "cfloat", "cdouble", "char", "clone", "conj", "contiguous", "cos", "cosh", "cpu", "cuda", "deg2rad", "detach", "digamma", "double", "erf", "erfc", "erfinv", "exp", "exp2", "expm1", "exponential_", "fix", "float", "floor", "frac", "geometric_", "half", "i0", "int", "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "lgamma", "log", "log10", "log1p", "log2", "log_normal_", "logical_not", "logit", "long", "mvlgamma", "nan_to_num", "neg", "negative", "normal_", "pin_memory", "polygamma", "positive", "rad2deg", "random_", "reciprocal", "relu", "requires_grad_", "round", "rsqrt", "sgn", "short", "sigmoid", "sign", "signbit", "sin", "sinc", "sinh", "sqrt", "square", "tan", "tanh", "to", "trunc", "type", "uniform_", "zero_", "__neg__", "__pos__", "__abs__", "__invert__", "bitwise_not", "type_as", "detach_", "share_memory_", "float_power_", "nan_to_num_", "angle", "conj_physical", "resolve_conj", "resolve_neg"]

_BINARY = ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "floor_divide", "remainder", "fmod", "pow", "float_power", "atan2", "arctan2", "maximum", "minimum", "fmax", "fmin", "eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal", "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "hypot", "copysign", "xlogy", "heaviside", "nextafter", "ldexp", "bitwise_left_shift", "bitwise_right_shift", "logaddexp", "logaddexp2", "gcd", "lcm", "igamma", "igammac", "isclose"]

_OPERATORS = {
    "__add__": "+",
    "__radd__": "+",
    "__iadd__": "+=",
    "__sub__": "-",
    "__rsub__": "-",
    "__isub__": "-=",
    "__mul__": "*",
    "__rmul__": "*",
    "__imul__": "*=",
    "__truediv__": "/",
    "__rtruediv__": "/",
    "__rdiv__": "/",
    "__itruediv__": "/=",
    "__div__": "/",
    "__floordiv__": "//",
    "__rfloordiv__": "//",
    "__ifloordiv__": "//=",
    "__mod__": "%",
    "__rmod__": "%",
    "__imod__": "%=",
    "__pow__": "**",
    "__rpow__": "**",
    "__ipow__": "**=",
    "__and__": "&",
    "__rand__": "&",
    "__iand__": "&=",
    "__or__": "|",
    "__ror__": "|",
    "__ior__": "|=",
    "__xor__": "^",
    "__rxor__": "^",
    "__ixor__": "^=",
    "__lshift__": "<<",
    "__rlshift__": "<<",
    "__ilshift__": "<<=",
    "__rshift__": ">>",
    "__rrshift__": ">>",
    "__irshift__": ">>=",
    "__eq__": "==",
    "__ne__": "!=",
    "__lt__": "<",
    "__le__": "<=",
    "__gt__": ">",
    "__ge__": ">=",
    "__matmul__": "@",
    "__rmatmul__": "@",
}

METHODS: dict[str, Handler] = {}
for _name in _SAME_SHAPE:
    METHODS[_name] = _same
    if not _name.endswith("_") and not _name.startswith("__"):
        METHODS[_name + "_"] = _same
for _name in _BINARY:
    METHODS[_name] = _binary
    METHODS[_name + "_"] = _in_place
METHODS["copy_"] = _in_place  # `x.copy_(src)`: src broadcasts into x, as an in-place operand does
METHODS["fill"] = METHODS["fill_"] = _fill  # (`fill` is `torch.fill` only)
for _name in _OPERATORS:
    if _name in ("__matmul__", "__rmatmul__"):
        continue
    if _name.startswith("__i"):
        METHODS[_name] = _in_place
    elif _name.startswith("__r") and _name not in ("__rshift__",):
        METHODS[_name] = _reflected
    else:
        METHODS[_name] = _binary
for _name, _args in {
    "clamp": ("min", "max"),
    "clip": ("min", "max"),
    "clamp_min": ("min",),
    "clamp_max": ("max",),
    "lerp": ("end", "weight"),
    "addcmul": ("tensor1", "tensor2"),
    "addcdiv": ("tensor1", "tensor2"),
}.items():
    METHODS[_name] = METHODS[_name + "_"] = _broadcast_with(*_args)
METHODS.update(
    {
        "__matmul__": _matmul,
        "matmul": _matmul,
        "mm": _product(rules.mm, "mat2"),
        "bmm": _product(rules.bmm, "mat2"),
        "mv": _product(rules.mv, "vec"),
        "dot": _product(rules.dot, "tensor", "other"),
        "vdot": _product(rules.dot, "other", "tensor"),
        "addmm": _add_product(rules.addmm, ("mat1",), ("mat2",)),
        "addmm_": _add_product(rules.addmm, ("mat1",), ("mat2",)),
        "baddbmm": _add_product(rules.baddbmm, ("batch1",), ("batch2",)),
        "baddbmm_": _add_product(rules.baddbmm, ("batch1",), ("batch2",)),
        "addbmm": _add_product(rules.addbmm, ("batch1",), ("batch2",)),
        "addbmm_": _add_product(rules.addbmm, ("batch1",), ("batch2",)),
        "addmv": _add_product(rules.addmv, ("mat",), ("vec",)),
        "addmv_": _add_product(rules.addmv, ("mat",), ("vec",)),
        "addr": _add_product(rules.addr, ("vec1",), ("vec2",)),
        "addr_": _add_product(rules.addr, ("vec1",), ("vec2",)),
        "__rmatmul__": _rmatmul,
        "gather": _gather,
        "take_along_dim": _take_along_dim,
        "index_select": _index_select,
        "scatter": _scatter,
        "scatter_": _scatter,
        "scatter_add": _scatter,
        "scatter_add_": _scatter,
        "scatter_reduce": _scatter,
        "scatter_reduce_": _scatter,
        "index_add": _index_add,
        "index_add_": _index_add,
        "index_copy": _index_add,
        "index_copy_": _index_add,
        "index_reduce": _index_add,
        "index_reduce_": _index_add,
        "index_put": _index_put,
        "index_put_": _index_put,
        "select_scatter": _scatter_view(_selected),
        "slice_scatter": _scatter_view(_sliced),
        "diagonal_scatter": _scatter_view(_diagonal_of),
        "masked_scatter": _masked_fill,
        "masked_scatter_": _masked_fill,
        "narrow_copy": _narrow,
        "expand_copy": _expand,
        "sum_to_size": _sum_to_size,
        "split_with_sizes": _split,
        "unsafe_split": _split,
        "unsafe_chunk": _chunk,
        "index_fill": _index_fill,
        "index_fill_": _index_fill,
        "flip": _flip,
        "fliplr": _flip,
        "flipud": _flip,
        "roll": _roll,
        "rot90": _rot90,
        "movedim": _movedim,
        "moveaxis": _movedim,
        "narrow": _narrow,
        "select": _select,
        "diagonal": _diagonal,
        "unfold": _unfold,
        "repeat_interleave": _repeat_interleave,
        "tile": _tile,
        "multinomial": _multinomial,
        "median": _median,
        "nanmedian": _median,
        "mode": _median,
        "view": _view,
        "reshape": _view,
        "view_as": _as_other(rules.view),
        "reshape_as": _as_other(rules.reshape),
        "flatten": _flatten,
        "unflatten": _unflatten,
        "transpose": _transpose,
        "swapaxes": _transpose,
        "swapdims": _transpose,
        "transpose_": _transpose,
        "swapaxes_": _transpose,
        "swapdims_": _transpose,
        "permute": _permute,
        "t": _t,
        "t_": _t,
        "adjoint": _adjoint,
        "squeeze": _squeeze,
        "squeeze_": _squeeze,
        "unsqueeze": _unsqueeze,
        "unsqueeze_": _unsqueeze,
        "expand": _expand,
        "broadcast_to": _expand,
        "expand_as": _expand_as,
        "repeat": _repeat,
        "sum": _reduction(),
        "nansum": _reduction(),
        "mean": _reduction(),
        "nanmean": _reduction(),
        "prod": _reduction(),
        "std": _reduction(),
        "var": _reduction(),
        "norm": _reduction(),
        "logsumexp": _reduction(),
        "count_nonzero": _reduction(),
        "any": _reduction(),
        "all": _reduction(),
        "amax": _reduction(nonempty=True),
        "amin": _reduction(nonempty=True),
        "max": _max_min,
        "min": _max_min,
        "argmax": _argmax,
        "argmin": _argmax,
        "softmax": _along,
        "log_softmax": _along,
        "cumsum": _along,
        "cumprod": _along,
        "cummax": _along,
        "cummin": _along,
        "logcumsumexp": _along,
        "sort": _along,
        "argsort": _along,
        "split": _split,
        "chunk": _chunk,
        "unbind": _unbind,
        "topk": _topk,
        "masked_fill": _masked_fill,
        "masked_fill_": _masked_fill,
        "where": _where,
        "outer": _outer,
        "ger": _outer,
        "size": _size,
        "new_zeros": _new_sized,
        "new_ones": _new_sized,
        "new_empty": _new_sized,
        "new_full": _new_sized,
        "__iter__": _iter,
        "__getitem__": _index,
        "__setitem__": _setitem,
        "tril": _tril,
        "triu": _tril,
        "tril_": _tril,
        "triu_": _tril,
        **_more_ops.METHODS,
        **_fft.METHODS,
        **_extra_ops.METHODS,
        **_linalg.METHODS,
    }
)
