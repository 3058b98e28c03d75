"""`torch.*` and `torch.nn.functional.*`: each result shape comes from a rule in `tyr.shape_rules`.

Functions are looked up by the full name mypy gives the callee (`torch.randn` is
`torch._C._VariableFunctions.randn`, `F.linear` is `torch._C._nn.linear`).  A
function that is a tensor method in another form (`torch.transpose(x, 0, 1)`)
reuses the method's handler with its first argument as the receiver (`_tensors.receiver_first`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from mypy.nodes import ARG_POS, Expression, FloatExpr, IntExpr, ListExpr, NameExpr, TupleExpr, UnaryExpr
from mypy.plugin import FunctionContext
from mypy.types import AnyType, Instance, LiteralType, TupleType, Type, get_proper_type

from tyr import shape_rules as rules
from tyr._symbolic import Expr, const
from tyr.mypy_plugin import _extra_ops, _fft, _linalg, _more_ops, _names, _tensors
from tyr.mypy_plugin._args import Actual, Call, NotKnown
from tyr.mypy_plugin._types import Lookup, NotATensor, Scope, unless_none
from tyr.shape_rules import MaybeShape, ShapeRuleError, Size, creation
from tyr.shape_rules import nn_functional as nnf

FunctionHandler = Callable[[Call], Type]

_VF = "torch._C._VariableFunctions."
_NN = "torch._C._nn."
_F = "torch.nn.functional."
_TF = "torch.functional."


def function_hook(ctx: FunctionContext, fullname: str, lookup: Lookup) -> Type:
    handler = FUNCTIONS[fullname]
    call = Call(ctx, Scope(lookup), fullname.rpartition(".")[2])
    return call.result(lambda: handler(call), call.op)


# -- creation -------------------------------------------------------------------------------------


def _sized(call: Call) -> Type:
    sizes = call.sizes_arg("size")
    if sizes is None:
        raise NotKnown
    return call.tensor(creation.from_sizes(sizes, op=call.op))


def _like(call: Call) -> Type:
    return call.tensor(call.tensor_arg("input", "self"))


def _number(call: Call, actual: Actual) -> creation.Number:
    """An `arange` bound: an int or float literal, a `Dim`, or `UNKNOWN`."""
    size = call.size_of(actual)
    if size is not None:
        value = size.const_value
        return value if value is not None else size
    value = call.float_of(actual)
    return value if value is not None else rules.UNKNOWN


def _arange(call: Call) -> Type:
    end = call.actuals("end")
    if not end:
        raise NotKnown
    start = call.actuals("start")
    step = call.actuals("step")
    if not start:
        return call.tensor(creation.arange(_number(call, end[0])))
    return call.tensor(
        creation.arange(_number(call, start[0]), _number(call, end[0]), _number(call, step[0]) if step else 1)
    )


def _eye(call: Call) -> Type:
    n = call.actuals("n")
    m = call.actuals("m")
    if not n:
        raise NotKnown
    return call.tensor(creation.eye(call.size_of(n[0]), call.size_of(m[0]) if m else None, has_m=bool(m)))


def _linspace(call: Call) -> Type:
    steps = call.actuals("steps")
    if not steps:
        raise NotKnown
    return call.tensor(creation.linspace(call.size_of(steps[0]), op=call.op))


# -- joining and splitting ------------------------------------------------------------------------


def _cat(call: Call) -> Type:
    dim = call.int_arg("dim", default=0)
    if not isinstance(dim, int):
        raise NotKnown
    shapes = call.tensor_list_arg("tensors")
    if shapes is None:
        return call.tensor(_repeated(call, rules.cat, dim))
    return call.tensor(rules.cat(shapes, dim))


def _stack(call: Call) -> Type:
    dim = call.int_arg("dim", default=0)
    if not isinstance(dim, int):
        raise NotKnown
    shapes = call.tensor_list_arg("tensors")
    if shapes is None:
        return call.tensor(_repeated(call, rules.stack, dim))
    return call.tensor(rules.stack(shapes, dim))


def _repeated(call: Call, rule: Callable[[Sequence[MaybeShape], int], MaybeShape], dim: int) -> MaybeShape:
    """`cat`/`stack` of a list of unknown length: the element shapes are known, their number is not.

    Joining `seq * n` is joining `seq`, then concatenating `n` copies of that along `dim` (stacking is
    concatenating tensors unsqueezed at `dim`); for a list of one element type, `seq` is one tensor.
    """
    piece = call.repeated_shapes("tensors")
    once = rule(piece, dim) if piece is not None else rule([call.element_shape("tensors")], dim)
    return rules.cat_repeated(once, None, dim)


def _where(call: Call) -> Type:
    if not call.given("input", "self"):
        return _more_ops.where_condition(call)
    return call.tensor(
        rules.where(call.tensor_arg("condition"), call.tensor_arg("input", "self"), call.tensor_arg("other"))
    )


def _einsum(call: Call) -> Type:
    args = call.actuals("args")
    equation = call.str_of(args[0]) if args else None
    if equation is None:
        raise NotKnown
    operands = args[1:]
    if len(operands) == 1:
        listed = call.sequence_shapes(operands[0])
        if listed is not None:
            return call.tensor(rules.einsum(equation, listed))
    # an operand typed `Any` (`q * scale` with `scale = d ** -0.5`) is a tensor of unknown shape
    shapes = [None if isinstance(get_proper_type(a.type), AnyType) else call.shape_of(a) for a in operands]
    return call.tensor(rules.einsum(equation, shapes))


def _broadcast_tensors(call: Call) -> Type:
    shapes = [call.shape_of(a) for a in call.actuals("tensors")]
    out = rules.broadcast_shapes(*shapes, op="broadcast_tensors")
    return call.tensors([out] * len(shapes))


# -- torch.nn.functional --------------------------------------------------------------------------


def _linear(call: Call) -> Type:
    bias = call.actuals("bias")
    bias_shape = call.shape_of(bias[0]) if bias and not call.is_none(bias[0]) else None
    has_bias = bool(bias) and not call.is_none(bias[0])
    return call.tensor(
        rules.linear(call.tensor_arg("input"), call.tensor_arg("weight"), bias_shape, has_bias=has_bias)
    )


def _same(call: Call) -> Type:
    return call.tensor(call.tensor_arg("input", "self", "x"))


def _along(call: Call) -> Type:
    shape = call.tensor_arg("input", "self")
    dim = call.int_arg("dim", default=None)
    if dim is None:
        return call.tensor(shape)
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.along_dim(shape, dim, op=call.op))


def _strides(call: Call, name: str) -> rules.Stride | tuple[rules.Stride, ...]:
    """A stride, kernel or groups argument: ints or sizes (`stride=p` with `p: Dim[P]`); 1 when not given."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return 1
    one = call.size_of(actuals[0])
    items = [one] if one is not None else call.sequence_of(actuals[0])
    if items is None or any(item is None for item in items):
        raise NotKnown
    strides = tuple(item.const_value if item.const_value is not None else item for item in items if item is not None)
    return strides[0] if one is not None else strides


def _per_dim_sizes(call: Call, name: str) -> rules.StrideOrTuple | None:
    """A kernel, stride, padding or dilation argument, read item by item: an int, a size
    (`stride=p` with `p: Dim[P]`), or `UNKNOWN` for an int of unknown value, which makes only its
    dim unknown to the rule; `UNKNOWN` for the whole argument where neither its value nor its
    items are known (a plain int, a list of unknown length).  None where it is not given."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return None
    one = call.size_of(actuals[0])
    if one is not None:
        return _item(one)
    items = call.sequence_of(actuals[0])
    if items is None:
        return rules.UNKNOWN
    return tuple(_item(item) for item in items)


def _item(size: Size) -> rules.StrideItem:
    """One per-dim item: its int value, else the size itself, or `UNKNOWN`."""
    if size is None:
        return rules.UNKNOWN
    value = size.const_value
    return value if value is not None else size


def _per_dim(call: Call, name: str, default: int) -> rules.IntOrTuple:
    """`_per_dim_sizes` where every item is an int: a size that is not a constant is `UNKNOWN`."""
    value = _per_dim_sizes(call, name)
    if value is None:
        return default
    items = value if isinstance(value, tuple) else (value,)
    ints = tuple(rules.UNKNOWN if isinstance(item, Expr) else item for item in items)
    return ints if isinstance(value, tuple) else ints[0]


def _conv(n: int) -> FunctionHandler:
    def handler(call: Call) -> Type:
        bias = call.actuals("bias")
        padding = call.str_arg("padding")
        groups = _strides(call, "groups")
        if isinstance(groups, tuple):
            raise NotKnown
        weight = call.tensor_arg("weight")
        stride = _per_dim_sizes(call, "stride")
        pads = padding if padding in ("same", "valid") else _per_dim(call, "padding", 0)
        dilation = _per_dim(call, "dilation", 1)
        return call.tensor(
            rules.conv_nd(
                call.tensor_arg("input"),
                weight,
                call.shape_of(bias[0]) if bias and not call.is_none(bias[0]) else None,
                stride=1 if stride is None else stride,
                padding=pads,  # type: ignore[arg-type]
                dilation=dilation,
                groups=groups,
                n=n,
            )
        )

    return handler


def _conv_transpose(n: int) -> FunctionHandler:
    def handler(call: Call) -> Type:
        bias = call.actuals("bias")
        groups = call.int_arg("groups", default=1)
        weight = call.tensor_arg("weight")
        stride, padding = _per_dim(call, "stride", 1), _per_dim(call, "padding", 0)
        output_padding, dilation = _per_dim(call, "output_padding", 0), _per_dim(call, "dilation", 1)
        return call.tensor(
            rules.conv_transpose_nd(
                call.tensor_arg("input"),
                weight,
                call.shape_of(bias[0]) if bias and not call.is_none(bias[0]) else None,
                stride=stride,
                padding=padding,
                output_padding=output_padding,
                groups=groups,  # type: ignore[arg-type]
                dilation=dilation,
                n=n,
            )
        )

    return handler


def _pool(n: int, kind: Literal["max", "avg", "lp"], *, with_indices: bool = False) -> FunctionHandler:
    """A pool function; `F.lp_pool{n}d` has no `padding` or `dilation`, which read as their defaults."""

    def handler(call: Call) -> Type:
        if not call.given("kernel_size"):
            raise NotKnown
        input = call.tensor_arg("input")
        kernel = _per_dim_sizes(call, "kernel_size")
        assert kernel is not None  # given, above
        stride = _per_dim_sizes(call, "stride")
        padding, dilation = _per_dim(call, "padding", 0), _per_dim(call, "dilation", 1)
        try:
            ceil_mode = call.bool_arg("ceil_mode", default=False)
        except NotKnown:  # not a constant: the spatial sizes are unknown, the rest is checked
            return _pooled(call, rules.pool_nd_unknown(input, n=n, kind=kind), with_indices)
        out = rules.pool_nd(
            input,
            kernel,
            stride,
            padding,
            dilation,
            ceil_mode,
            n=n,
            kind=kind,
        )
        return _pooled(call, out, with_indices)

    return handler


def _pooled(call: Call, out: MaybeShape, with_indices: bool) -> Type:
    """A max pool's result, with the indices of its maxima (of the same shape) where it gives them."""
    if with_indices or call.bool_arg("return_indices", default=False):
        return call.tensors((out, out), call.default)
    return call.tensor(out)


def _pad(call: Call) -> Type:
    sizes = call.sizes_arg("pad")
    if sizes is None:
        raise NotKnown
    mode = call.str_arg("mode") or "constant"  # (the same shape in every mode; "constant" takes any)
    return call.tensor(rules.pad(call.tensor_arg("input"), sizes, mode))


def _interpolate(call: Call) -> Type:
    shape = call.tensor_arg("input")
    size_actuals = call.actuals("size")
    size: Size | list[Size] | None = None
    if size_actuals and not call.is_none(size_actuals[0]):
        listed = call.sequence_of(size_actuals[0])
        size = listed if listed is not None else call.size_of(size_actuals[0])
        if size is None:
            raise NotKnown
    scale = call.actuals("scale_factor")
    factor: float | list[float] | None = None
    if scale and not call.is_none(scale[0]):
        factor = call.float_of(scale[0])
        if factor is None:
            factor = _floats_of(call, scale[0])
    mode = call.str_arg("mode") or "nearest"  # (the same sizes in every mode; "nearest" takes any rank)
    return call.tensor(rules.interpolate(shape, size, factor, mode))


def _floats_of(call: Call, actual: Actual) -> list[float]:
    """The numbers in a literal tuple or list argument (`scale_factor=(2, 1.5)`)."""
    if not isinstance(actual.expr, (TupleExpr, ListExpr)):
        raise NotKnown
    out = []
    for item in actual.expr.items:
        item_type = call.type_of(item)
        value = None if item_type is None else call.float_of(Actual(item_type, item, actual.kind))
        if value is None:
            raise NotKnown
        out.append(value)
    return out


def _pixel_shuffle(call: Call) -> Type:
    inverse = call.op == "pixel_unshuffle"
    factor = call.int_arg("downscale_factor" if inverse else "upscale_factor")
    if not isinstance(factor, int):
        raise NotKnown
    return call.tensor(rules.pixel_shuffle(call.tensor_arg("input"), factor, inverse=inverse))


def _adaptive_pool(n: int, kind: str, *, with_indices: bool = False) -> FunctionHandler:
    def handler(call: Call) -> Type:
        actuals = call.actuals("output_size")
        if not actuals:
            raise NotKnown
        output: object = call.size_of(actuals[0])
        if output is None:
            listed = _sizes_or_keep(call, actuals[0])
            output = listed if listed is not None else rules.UNKNOWN
        out = rules.adaptive_pool_nd(call.tensor_arg("input"), output, n=n, kind=kind)  # type: ignore[arg-type]
        return _pooled(call, out, with_indices)

    return handler


def _sizes_or_keep(call: Call, actual: Actual) -> list[Size | rules.Unknown | None] | None:
    """An `output_size` tuple whose items are sizes, None (keep the input's) or ints of unknown value."""
    if not isinstance(actual.expr, (TupleExpr, ListExpr)):
        return None
    out: list[Size | rules.Unknown | None] = []
    for item in actual.expr.items:
        item_type = call.type_of(item)
        item_actual = Actual(item_type, item, actual.kind) if item_type is not None else None
        if item_actual is not None and call.is_none(item_actual):
            out.append(None)
        else:
            size = call.size_of(item_actual) if item_actual is not None else None
            out.append(size if size is not None else rules.UNKNOWN)
    return out


def _patches(call: Call) -> Type:
    if not _given(call, "kernel_size"):
        raise NotKnown
    kernel = _per_dim(call, "kernel_size", 1)
    params = [_per_dim(call, name, 1 if name != "padding" else 0) for name in ("dilation", "padding", "stride")]
    if call.op == "unfold":
        return call.tensor(rules.unfold_patches(call.tensor_arg("input"), kernel, *params))
    output = call.sizes_arg("output_size")
    if output is None:
        raise NotKnown
    return call.tensor(rules.fold_patches(call.tensor_arg("input"), output, kernel, *params))


def _glu(call: Call) -> Type:
    dim = call.int_arg("dim", default=-1)
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.glu(call.tensor_arg("input"), dim))


def _distance(call: Call) -> Type:
    a, b = call.tensor_arg("x1"), call.tensor_arg("x2")
    if call.op == "cdist":
        return call.tensor(rules.cdist(a, b))
    if call.op == "pairwise_distance":
        return call.tensor(rules.pairwise_distance(a, b, call.bool_arg("keepdim", default=False)))
    dim = call.int_arg("dim", default=1)
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.cosine_similarity(a, b, dim))


def _meshgrid(call: Call) -> Type:
    actuals = call.actuals("tensors")
    if len(actuals) == 1 and actuals[0].kind == ARG_POS:
        listed = call.sequence_shapes(actuals[0])
        shapes = listed if listed is not None else [call.shape_of(actuals[0])]
    elif any(a.kind != ARG_POS for a in actuals):
        raise NotKnown
    else:
        shapes = [call.shape_of(a) for a in actuals]
    indexing = call.str_option("indexing", "ij")
    return call.tensors(rules.meshgrid(shapes, indexing), call.default)


def _tri_indices(call: Call) -> Type:
    row, col = call.actuals("row"), call.actuals("col")
    offset = call.int_arg("offset", default=0)
    if not row or not col or not isinstance(offset, int):
        raise NotKnown
    upper = call.op == "triu_indices"
    return call.tensor(rules.tri_indices(call.size_of(row[0]), call.size_of(col[0]), offset, upper=upper))


def _broadcast(*names: str) -> FunctionHandler:
    """`torch.polar(abs, angle)`, `torch.complex(real, imag)`: the arguments broadcast together."""

    def handler(call: Call) -> Type:
        return call.tensor(rules.broadcast_shapes(*(call.tensor_arg(n) for n in names), op=call.op))

    return handler


def _grid_sample(call: Call) -> Type:
    return call.tensor(rules.grid_sample(call.tensor_arg("input"), call.tensor_arg("grid")))


def _affine_grid(call: Call) -> Type:
    size = call.sizes_arg("size")
    if size is None:
        raise NotKnown
    return call.tensor(rules.affine_grid(call.tensor_arg("theta"), size))


def _literal_data(call: Call) -> Type:
    """`torch.tensor([[1, 2], [3, 4]])`: the shape of a literal nest of numbers (or of a tuple of ints)."""
    actuals = call.actuals("data")
    if not actuals:
        raise NotKnown
    expr = actuals[0].expr
    dims = _nest_shape(expr, lambda e: _is_python_number(call.type_of(e)))
    if dims is None:
        t = get_proper_type(actuals[0].type)
        if isinstance(expr, (ListExpr, TupleExpr)) or not isinstance(t, TupleType):
            raise NotKnown
        if not all(call.scope.size_of(i) is not None or _tensors._is_int(i) for i in t.items):
            raise NotKnown
        dims = [len(t.items)]  # a tuple of ints (`torch.tensor(x.shape)`)
    return call.tensor(creation.from_sizes(dims, op=call.op))


def _nest_shape(expr: Expression, is_number: Callable[[Expression], bool]) -> list[int] | None:
    """The lengths of a rectangular nest of lists/tuples of numbers (literals, or values typed as
    Python numbers: `torch.tensor(d ** 0.5)` is 0-d); None for anything else."""
    if isinstance(expr, (IntExpr, FloatExpr)) or isinstance(expr, UnaryExpr) and isinstance(
        expr.expr, (IntExpr, FloatExpr)
    ):
        return []
    if isinstance(expr, NameExpr) and expr.fullname in ("builtins.True", "builtins.False"):
        return []
    if not isinstance(expr, (ListExpr, TupleExpr)):
        return [] if is_number(expr) else None
    inner = [_nest_shape(item, is_number) for item in expr.items]
    if any(i is None for i in inner) or any(i != inner[0] for i in inner[1:]):
        return None
    return [len(expr.items), *(inner[0] or [])] if inner else [0]


def _scalar(call: Call) -> Type:
    return call.tensor(creation.from_sizes([], op=call.op))


_PYTHON_NUMBERS = frozenset({_names.INT, _names.FLOAT, _names.BOOL, "builtins.complex"})


def _is_python_number(t: Type | None) -> bool:
    """A Python `int`, `float`, `bool` or `complex` (a `Dim` too): never a sequence, whatever its value."""
    p = get_proper_type(t)
    if isinstance(p, LiteralType):
        p = p.fallback
    return isinstance(p, Instance) and any(p.type.has_base(name) for name in _PYTHON_NUMBERS)


def _randperm(call: Call) -> Type:
    n = call.actuals("n")
    if not n:
        raise NotKnown
    return call.tensor(creation.from_sizes([call.size_of(n[0])], op=call.op))


def _same_as(*names: str) -> FunctionHandler:
    """A function whose result has the shape of its tensor argument named one of `names`."""

    def handler(call: Call) -> Type:
        return call.tensor(call.tensor_arg(*names))

    return handler


def _complex_view(call: Call) -> Type:
    rule = rules.view_as_complex if call.op == "view_as_complex" else rules.view_as_real
    return call.tensor(rule(call.tensor_arg("input")))


def _optional(call: Call, *names: str) -> MaybeShape:
    """The shape of an optional tensor argument; None when it is not given (or None).  An argument
    that may be None (`Tensor[B, S] | None`, after `mask = None; if c: mask = ...`) is read as its
    tensor: what torch checks whenever it is given."""
    actuals = call.actuals(*names)
    if not actuals or call.is_none(actuals[0]):
        return None
    tensor = unless_none(actuals[0].type)
    return call.shape_of(actuals[0] if tensor is None else actuals[0]._replace(type=tensor))


def _may_be_none(call: Call, *names: str) -> bool:
    actuals = call.actuals(*names)
    return bool(actuals) and unless_none(actuals[0].type) is not None


def _given(call: Call, *names: str) -> bool:
    actuals = call.actuals(*names)
    return bool(actuals) and not call.is_none(actuals[0])


def _reduction(call: Call) -> nnf.Reduction:
    """`reduction`; where the legacy `size_average` or `reduce` is given, what torch makes of them
    instead (`_Reduction.legacy_get_string`: `reduce=False` is "none", `size_average=False` "sum")."""
    legacy = [call.actuals(name) for name in ("size_average", "reduce")]
    if any(actuals and not call.is_none(actuals[0]) for actuals in legacy):
        size_average, reduce = (_legacy_flag(call, actuals) for actuals in legacy)
        return "mean" if size_average and reduce else "sum" if reduce else "none"
    reduction = call.str_option("reduction", "mean")
    if reduction not in ("none", "mean", "sum"):
        raise NotKnown
    return reduction  # type: ignore[return-value]


def _legacy_flag(call: Call, actuals: list[Actual]) -> bool:
    if not actuals or call.is_none(actuals[0]):
        return True  # torch's default for an absent flag
    value = call.bool_of(actuals[0])
    if value is None:
        raise NotKnown
    return value


def _embedding(call: Call) -> Type:
    padding = call.actuals("padding_idx")
    padding_idx = call.int_of(padding[0]) if padding and not call.is_none(padding[0]) else None
    return call.tensor(nnf.embedding(call.tensor_arg("input"), call.tensor_arg("weight"), padding_idx))


def _embedding_bag(call: Call) -> Type:
    def optional(name: str) -> tuple[MaybeShape, bool]:
        actuals = call.actuals(name)
        if not actuals or call.is_none(actuals[0]):
            return None, False
        try:
            return call.shape_of(actuals[0]), True
        except NotKnown:
            return None, True  # given, of a shape not known

    offsets, has_offsets = optional("offsets")
    weights, has_weights = optional("per_sample_weights")
    mode = call.str_arg("mode") if call.given("mode") else "mean"
    out = nnf.embedding_bag(
        call.tensor_arg("input"),
        call.tensor_arg("weight"),
        offsets,
        has_offsets=has_offsets,
        include_last_offset=call.bool_arg("include_last_offset", default=False),
        per_sample_weights=weights,
        has_per_sample_weights=has_weights,
        mode=mode,
    )
    return call.tensor(out)


def _local_response_norm(call: Call) -> Type:
    return call.tensor(nnf.local_response_norm(call.tensor_arg("input")))


def _instance_norm(call: Call) -> Type:
    stats = [
        (name, call.shape_of(actuals[0]))
        for name in ("running_mean", "running_var", "weight", "bias")
        if (actuals := call.actuals(name)) and call.is_tensor(actuals[0])
    ]
    use_input_stats = call.bool_arg("use_input_stats", default=True)
    return call.tensor(nnf.instance_norm(call.tensor_arg("input"), stats, use_input_stats))


def _one_hot(call: Call) -> Type:
    shape = call.tensor_arg("tensor", "input", "self")
    classes = call.actuals("num_classes")
    count = call.size_of(classes[0]) if classes else None
    value = count.const_value if count is not None else (-1 if not classes else None)
    if value is not None:
        return call.tensor(nnf.one_hot(shape, value))
    # A symbolic class count (a `Dim`): the rule with the count left open, then the count filled in.
    out = nnf.one_hot(shape, -1)
    return call.tensor(None if out is None else (*out[:-1], count))


def _layer_norm(call: Call) -> Type:
    sizes = call.sizes_arg("normalized_shape")
    if sizes is None:
        raise NotKnown
    return call.tensor(
        nnf.layer_norm(call.tensor_arg("input"), sizes, _optional(call, "weight"), _optional(call, "bias"))
    )


def _rms_norm(call: Call) -> Type:
    sizes = call.sizes_arg("normalized_shape")
    if sizes is None:
        raise NotKnown
    return call.tensor(nnf.rms_norm(call.tensor_arg("input"), sizes, _optional(call, "weight")))


def _group_norm(call: Call) -> Type:
    actuals = call.actuals("num_groups")
    size = call.size_of(actuals[0]) if actuals else None
    if size is None:
        raise NotKnown
    groups = size if size.const_value is None else size.const_value
    return call.tensor(
        nnf.group_norm(call.tensor_arg("input"), groups, _optional(call, "weight"), _optional(call, "bias"))
    )


def _batch_norm(call: Call) -> Type:
    training = call.bool_arg("training", default=False)
    return call.tensor(
        nnf.batch_norm(
            call.tensor_arg("input"),
            _optional(call, "running_mean"),
            _optional(call, "running_var"),
            _optional(call, "weight"),
            _optional(call, "bias"),
            training,
        )
    )


def _cross_entropy(call: Call) -> Type:
    return call.tensor(
        nnf.cross_entropy(
            call.tensor_arg("input"),
            call.tensor_arg("target"),
            _reduction(call),
            _optional(call, "weight"),
            op=call.op,
        )
    )


def _elementwise_loss(same_shape: bool) -> FunctionHandler:
    def handler(call: Call) -> Type:
        return call.tensor(
            nnf.elementwise_loss(
                call.tensor_arg("input"), call.tensor_arg("target"), _reduction(call), same_shape=same_shape, op=call.op
            )
        )

    return handler


def _loss(rule: Callable[..., MaybeShape], *tensors: str) -> FunctionHandler:
    """A loss whose rule takes the named tensors and the reduction."""

    def handler(call: Call) -> Type:
        return call.tensor(rule(*(call.tensor_arg(name) for name in tensors), _reduction(call)))

    return handler


def _multilabel_soft_margin_loss(call: Call) -> Type:
    weight = call.tensor_arg("weight") if _given(call, "weight") else ()  # no weight broadcasts as a 0-d one
    input, target = call.tensor_arg("input"), call.tensor_arg("target")
    return call.tensor(nnf.multilabel_soft_margin_loss(input, target, _reduction(call), weight))


def _multi_margin_loss(call: Call) -> Type:
    p = call.actuals("p")
    power = call.int_of(p[0]) if p else 1
    input, target = call.tensor_arg("input"), call.tensor_arg("target")
    return call.tensor(nnf.multi_margin_loss(input, target, _reduction(call), _optional(call, "weight"), power))


def _gaussian_nll_loss(call: Call) -> Type:
    """`F.gaussian_nll_loss(input, target, var)`: a float `var` is one variance per element of the input."""
    input, target = call.tensor_arg("input"), call.tensor_arg("target")
    var = call.actuals("var")
    if not var:
        raise NotKnown
    try:
        variances = call.scope.tensor_shape(var[0].type)
    except NotATensor:
        t = get_proper_type(var[0].type)
        if not (isinstance(t, Instance) and t.type.fullname == _names.FLOAT):
            raise NotKnown from None  # torch takes a float or a tensor only
        variances = input
    return call.tensor(nnf.gaussian_nll_loss(input, target, variances, _reduction(call)))


def _ctc_loss(call: Call) -> Type:
    input_lengths, target_lengths = (_per_item_lengths(call, name) for name in ("input_lengths", "target_lengths"))
    log_probs, targets = call.tensor_arg("log_probs"), _optional(call, "targets")
    return call.tensor(nnf.ctc_loss(log_probs, targets, input_lengths, target_lengths, _reduction(call)))


def _per_item_lengths(call: Call, name: str) -> MaybeShape:
    """A lengths argument's shape: a tensor's, or a sequence of ints as the 1-d tensor torch makes of it."""
    actuals = call.actuals(name)
    if not actuals:
        return None
    try:
        return call.shape_of(actuals[0])
    except NotKnown:
        items = call.sequence_of(actuals[0])
        return None if items is None else (const(len(items)),)


def _triplet_margin_loss(call: Call) -> Type:
    """`F.triplet_margin_loss` and `F.triplet_margin_with_distance_loss` (a `distance_function` of the user's gives
    an unknown shape)."""
    margin = call.actuals("margin")
    anchor, positive, negative = (call.tensor_arg(name) for name in ("anchor", "positive", "negative"))
    return call.tensor(
        nnf.triplet_margin_loss(
            anchor, positive, negative, _reduction(call),
            swap=call.bool_arg("swap", default=False),
            margin=call.float_of(margin[0]) if margin else 1.0,
            distance=not _given(call, "distance_function"),
            op=call.op,
        )
    )


def _attention(call: Call) -> Type:
    q, k, v = call.tensor_arg("query"), call.tensor_arg("key"), call.tensor_arg("value")
    mask, has_mask = _optional(call, "attn_mask"), _given(call, "attn_mask")
    causal_choices, gqa_choices = _flag_choices(call, "is_causal"), _flag_choices(call, "enable_gqa")
    shapes, errors = [], []
    for causal in causal_choices:
        # torch refuses a mask with `is_causal` only where the mask is given
        given = (None, False) if causal and _may_be_none(call, "attn_mask") else (mask, has_mask)
        for gqa in gqa_choices:
            try:
                shapes.append(nnf.scaled_dot_product_attention(q, k, v, given[0], causal, gqa, has_mask=given[1]))
            except ShapeRuleError as error:
                errors.append(error)
    if not shapes:
        raise errors[0]  # refused whatever the flags are
    # A flag of unknown value (`is_causal=mask is None and t > 1`, `enable_gqa=h != kv`): the shape
    # that every value torch accepts gives, if they agree.
    return call.tensor(shapes[0] if all(s == shapes[0] for s in shapes) else None)


def _flag_choices(call: Call, name: str) -> tuple[bool, ...]:
    """The values a bool argument may have: its constant, or both where it is not constant."""
    try:
        return (call.bool_arg(name, default=False),)
    except NotKnown:
        return (False, True)


def _dropout(call: Call) -> Type:
    p = call.actuals("p")
    probability = call.float_of(p[0]) if p else 0.5
    return call.tensor(nnf.dropout(call.tensor_arg("input"), 0.5 if probability is None else probability, op=call.op))


def _feature_dropout(spatial: int) -> FunctionHandler:
    """`F.dropout1d` / `dropout2d` / `dropout3d`; a `p` or `training` not known statically checks what does not
    depend on it."""

    def handler(call: Call) -> Type:
        p, training = call.actuals("p"), call.actuals("training")
        probability = call.float_of(p[0]) if p else 0.5
        runs = call.bool_of(training[0]) if training else True
        shape = call.tensor_arg("input")
        return call.tensor(nnf.feature_dropout(shape, probability, spatial, runs=runs, op=call.op))

    return handler


def _tril(call: Call) -> Type:
    return call.tensor(nnf.tril(call.tensor_arg("input", "self"), op=call.op))


FUNCTIONS: dict[str, FunctionHandler] = {}

for _name in ("randn", "rand", "zeros", "ones", "empty", "full", "randint"):
    FUNCTIONS[_VF + _name] = _sized
for _name in ("randn_like", "rand_like", "zeros_like", "ones_like", "empty_like", "full_like", "randint_like"):
    FUNCTIONS[_VF + _name] = _like
FUNCTIONS[_VF + "arange"] = _arange
FUNCTIONS[_VF + "eye"] = _eye
FUNCTIONS[_VF + "linspace"] = _linspace
FUNCTIONS[_VF + "logspace"] = _linspace
FUNCTIONS[_VF + "cat"] = _cat
FUNCTIONS[_VF + "concat"] = _cat
FUNCTIONS[_VF + "concatenate"] = _cat
FUNCTIONS[_VF + "stack"] = _stack
FUNCTIONS[_VF + "where"] = _where
FUNCTIONS[_TF + "einsum"] = _einsum
FUNCTIONS[_TF + "broadcast_tensors"] = _broadcast_tensors
FUNCTIONS[_TF + "split"] = _tensors.receiver_first("split", ("tensor",))

for _method in (
    "outer",
    "ger",
    "chunk",
    "unbind",
    "matmul",
    "mm",
    "bmm",
    "mv",
    "dot",
    "vdot",
    "addmm",
    "baddbmm",
    "addbmm",
    "addmv",
    "addmv_",
    "addr",
    "gather",
    "take_along_dim",
    "index_select",
    "scatter",
    "scatter_add",
    "scatter_reduce",
    "index_add",
    "index_copy",
    "index_fill",
    "fill",
    "fill_",
    "index_reduce",
    "index_put",
    "index_put_",
    "select_scatter",
    "slice_scatter",
    "diagonal_scatter",
    "masked_scatter",
    "narrow_copy",
    "expand_copy",
    "split_with_sizes",
    "unsafe_split",
    "unsafe_chunk",
    "flip",
    "fliplr",
    "flipud",
    "roll",
    "rot90",
    "movedim",
    "moveaxis",
    "narrow",
    "select",
    "diagonal",
    "repeat_interleave",
    "tile",
    "clamp",
    "clip",
    "clamp_min",
    "clamp_max",
    "lerp",
    "addcmul",
    "addcdiv",
    "multinomial",
    "median",
    "nanmedian",
    "mode",
    "transpose",
    "swapaxes",
    "swapdims",
    "permute",
    "flatten",
    "unflatten",
    "reshape",
    "squeeze",
    "unsqueeze",
    "sum",
    "nansum",
    "mean",
    "nanmean",
    "prod",
    "std",
    "var",
    "logsumexp",
    "amax",
    "amin",
    "any",
    "all",
    "count_nonzero",
    "max",
    "min",
    "argmax",
    "argmin",
    "softmax",
    "log_softmax",
    "cumsum",
    "cumprod",
    "cummax",
    "cummin",
    "logcumsumexp",
    "sort",
    "argsort",
    "topk",
    "masked_fill",
    "t",
    "adjoint",
    *_tensors._SAME_SHAPE,
    *_tensors._BINARY,
):
    if _method in _tensors.METHODS and not _method.startswith("_"):
        FUNCTIONS[_VF + _method] = _tensors.receiver_first(_method)
FUNCTIONS[_TF + "norm"] = _tensors.receiver_first("norm")
for _method in _more_ops.METHODS:
    FUNCTIONS[_VF + _method] = _tensors.receiver_first(_method)
FUNCTIONS.update(_more_ops.FUNCTIONS)
FUNCTIONS.update(_fft.FUNCTIONS)
FUNCTIONS[_TF + "stft"] = _tensors.receiver_first("stft")
FUNCTIONS.update(_linalg.FUNCTIONS)
for _method in _linalg.METHODS:
    FUNCTIONS[_VF + _method] = _tensors.receiver_first(_method)
for _method in (*_extra_ops.METHODS, "broadcast_to"):
    FUNCTIONS[_VF + _method] = _tensors.receiver_first(_method)
FUNCTIONS.update(_extra_ops.FUNCTIONS)

FUNCTIONS[_NN + "linear"] = _linear
for _name in (
    "relu",
    "relu6",
    "silu",
    "mish",
    "elu",
    "selu",
    "celu",
    "leaky_relu",
    "hardtanh",
    "hardswish",
    "hardsigmoid",
    "sigmoid",
    "tanh",
    "logsigmoid",
    "softsign",
    "softplus",
    "tanhshrink",
    "softshrink",
    "hardshrink",
    "threshold",
    "rrelu",
):
    FUNCTIONS[_F + _name] = _same
for _name in ("gelu", "log_sigmoid", "softplus", "hardtanh", "leaky_relu", "elu", "elu_", "hardtanh_", "leaky_relu_"):
    FUNCTIONS[_NN + _name] = _same
for _name in ("relu_", "selu_", "celu_", "rrelu_", "threshold_"):  # `F.relu_` is `torch.relu_`
    FUNCTIONS[_VF + _name] = _same
for _name in ("softmax", "log_softmax", "softmin", "normalize"):
    FUNCTIONS[_F + _name] = _along
FUNCTIONS[_VF + "conv1d"] = _conv(1)
FUNCTIONS[_VF + "conv2d"] = _conv(2)
FUNCTIONS[_VF + "conv3d"] = _conv(3)
FUNCTIONS[_VF + "conv_transpose1d"] = _conv_transpose(1)
FUNCTIONS[_VF + "conv_transpose2d"] = _conv_transpose(2)
FUNCTIONS[_VF + "conv_transpose3d"] = _conv_transpose(3)
FUNCTIONS[_F + "max_pool1d"] = _pool(1, "max")
FUNCTIONS[_F + "max_pool2d"] = _pool(2, "max")
FUNCTIONS[_F + "max_pool3d"] = _pool(3, "max")
FUNCTIONS[_VF + "avg_pool1d"] = _pool(1, "avg")
FUNCTIONS[_NN + "avg_pool2d"] = _pool(2, "avg")
FUNCTIONS[_NN + "avg_pool3d"] = _pool(3, "avg")
for _n in (1, 2, 3):
    FUNCTIONS[_F + f"lp_pool{_n}d"] = _pool(_n, "lp")
FUNCTIONS[_F + "dropout"] = _dropout
FUNCTIONS[_F + "alpha_dropout"] = _dropout
FUNCTIONS[_F + "feature_alpha_dropout"] = _dropout
for _n in (1, 2, 3):
    FUNCTIONS[_F + f"dropout{_n}d"] = _feature_dropout(_n)
FUNCTIONS[_F + "embedding"] = _embedding
FUNCTIONS[_F + "embedding_bag"] = _embedding_bag
FUNCTIONS[_NN + "one_hot"] = _one_hot
FUNCTIONS[_F + "layer_norm"] = _layer_norm
FUNCTIONS[_F + "rms_norm"] = _rms_norm
FUNCTIONS[_F + "group_norm"] = _group_norm
FUNCTIONS[_F + "batch_norm"] = _batch_norm
FUNCTIONS[_F + "cross_entropy"] = _cross_entropy
FUNCTIONS[_F + "nll_loss"] = _cross_entropy
for _name in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
    FUNCTIONS[_F + _name] = _elementwise_loss(False)
for _name in ("binary_cross_entropy", "binary_cross_entropy_with_logits"):
    FUNCTIONS[_F + _name] = _elementwise_loss(True)
for _name in ("hinge_embedding_loss", "poisson_nll_loss"):
    FUNCTIONS[_F + _name] = _elementwise_loss(False)
FUNCTIONS[_F + "soft_margin_loss"] = _loss(nnf.soft_margin_loss, "input", "target")
FUNCTIONS[_F + "multilabel_margin_loss"] = _loss(nnf.multilabel_margin_loss, "input", "target")
FUNCTIONS[_F + "cosine_embedding_loss"] = _loss(nnf.cosine_embedding_loss, "input1", "input2", "target")
FUNCTIONS[_F + "margin_ranking_loss"] = _loss(nnf.margin_ranking_loss, "input1", "input2", "target")
FUNCTIONS[_F + "multilabel_soft_margin_loss"] = _multilabel_soft_margin_loss
FUNCTIONS[_F + "multi_margin_loss"] = _multi_margin_loss
FUNCTIONS[_F + "gaussian_nll_loss"] = _gaussian_nll_loss
FUNCTIONS[_F + "ctc_loss"] = _ctc_loss
FUNCTIONS[_F + "triplet_margin_loss"] = _triplet_margin_loss
FUNCTIONS[_F + "triplet_margin_with_distance_loss"] = _triplet_margin_loss
FUNCTIONS[_NN + "scaled_dot_product_attention"] = _attention
FUNCTIONS[_VF + "tril"] = _tril
FUNCTIONS[_VF + "triu"] = _tril
FUNCTIONS[_NN + "pad"] = _pad
FUNCTIONS[_F + "pad"] = _pad
FUNCTIONS[_F + "interpolate"] = _interpolate
FUNCTIONS[_VF + "pixel_shuffle"] = _pixel_shuffle
FUNCTIONS[_VF + "pixel_unshuffle"] = _pixel_shuffle
FUNCTIONS[_VF + "view_as_complex"] = _complex_view
FUNCTIONS[_VF + "view_as_real"] = _complex_view
FUNCTIONS[_VF + "adaptive_avg_pool1d"] = _adaptive_pool(1, "avg")
FUNCTIONS[_F + "adaptive_avg_pool2d"] = _adaptive_pool(2, "avg")
FUNCTIONS[_F + "adaptive_avg_pool3d"] = _adaptive_pool(3, "avg")
for _n in (1, 2, 3):
    FUNCTIONS[_F + f"adaptive_max_pool{_n}d"] = _adaptive_pool(_n, "max")
    FUNCTIONS[_F + f"adaptive_max_pool{_n}d_with_indices"] = _adaptive_pool(_n, "max", with_indices=True)
    FUNCTIONS[_F + f"max_pool{_n}d_with_indices"] = _pool(_n, "max", with_indices=True)
FUNCTIONS[_F + "unfold"] = _patches
FUNCTIONS[_F + "fold"] = _patches
FUNCTIONS[_F + "glu"] = _glu
FUNCTIONS[_VF + "cosine_similarity"] = _distance
FUNCTIONS[_VF + "pairwise_distance"] = _distance
FUNCTIONS[_TF + "cdist"] = _distance
FUNCTIONS[_TF + "meshgrid"] = _meshgrid
FUNCTIONS[_VF + "tril_indices"] = _tri_indices
FUNCTIONS[_VF + "triu_indices"] = _tri_indices
FUNCTIONS[_VF + "polar"] = _broadcast("abs", "angle")
FUNCTIONS[_VF + "complex"] = _broadcast("real", "imag")
FUNCTIONS[_F + "grid_sample"] = _grid_sample
FUNCTIONS[_F + "affine_grid"] = _affine_grid
FUNCTIONS[_VF + "tensor"] = _literal_data
FUNCTIONS[_VF + "as_tensor"] = _literal_data
FUNCTIONS[_VF + "scalar_tensor"] = _scalar
FUNCTIONS[_VF + "randperm"] = _randperm
FUNCTIONS[_F + "gumbel_softmax"] = _same_as("logits")
FUNCTIONS[_F + "instance_norm"] = _instance_norm
FUNCTIONS[_F + "local_response_norm"] = _local_response_norm
