"""Hooks for the less common torch ops: `tensordot`, `kron`, `cross`, the `diag` family, `diff`,
`hstack` and its kin, `atleast_{1,2,3}d`, `quantile`, `var_mean` / `std_mean`, `masked_select`,
`nonzero` / `argwhere` / one-argument `where`, `ravel`, `msort`, `numel`, `tensor_split`,
`aminmax`, `kthvalue`.

`METHODS` holds the tensor-method handlers (merged into `_tensors.METHODS`), `FUNCTIONS` the
handlers of the functions that have no method form; the rules are `tyr.shape_rules`'.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import Expression, ListExpr, TupleExpr
from mypy.types import AnyType, Type, get_proper_type

from tyr import shape_rules as rules
from tyr.mypy_plugin._args import Call, NotKnown, is_int_like, literal_int
from tyr.shape_rules import MaybeShape, Size

Handler = Callable[[Call, MaybeShape], Type]
FunctionHandler = Callable[[Call], Type]


def _int(call: Call, name: str, default: int) -> int:
    value = call.int_arg(name, default=default)
    if not isinstance(value, int):
        raise NotKnown
    return value


def _result(call: Call, shape: MaybeShape) -> Type:
    """The tensor of `shape`; where torch declares the callee's result `Any` (`tensordot`, `atleast_2d`)
    and the shape is unknown, that `Any`, as without tyr."""
    if shape is None and isinstance(get_proper_type(call.default), AnyType):
        return call.default
    return call.tensor(shape)


# -- tensor methods (and their function forms) ----------------------------------------------------


def _ravel(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.flatten(shape))


def _msort(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.along_dim(shape, 0, op="msort"))


def _numel(call: Call, shape: MaybeShape) -> Type:
    """`x.numel()`: the product of the sizes, as a `Dim` (`x.view(x.numel() // d, d)` keeps its sizes)."""
    total = None if shape is None else rules.core.numel(shape)
    return call.default if total is None else call.scope.dim_value_type(total)


def _dim(call: Call, shape: MaybeShape) -> Type:
    """`x.dim()`: the rank, as `x.ndim` gives it."""
    n = None if shape is None else rules.core.rank(shape)
    return call.default if n is None else call.scope.int_literal(n)


def _diag(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.diag(shape, _int(call, "diagonal", 0)))


def _diagflat(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.diagflat(shape, _int(call, "offset", 0)))


def _diag_embed(call: Call, shape: MaybeShape) -> Type:
    offset, dim1, dim2 = _int(call, "offset", 0), _int(call, "dim1", -2), _int(call, "dim2", -1)
    return call.tensor(rules.diag_embed(shape, offset, dim1, dim2))


def _end(call: Call, name: str) -> MaybeShape | rules.Unknown:
    """A `prepend` / `append` tensor: its shape (None if unknown), or `UNKNOWN` when not given."""
    actuals = call.actuals(name)
    if not actuals or call.is_none(actuals[0]):
        return rules.UNKNOWN
    try:
        return call.shape_of(actuals[0])
    except NotKnown:
        return None


def _diff(call: Call, shape: MaybeShape) -> Type:
    n, dim = _int(call, "n", 1), _int(call, "dim", -1)
    return call.tensor(rules.diff(shape, n, dim, _end(call, "prepend"), _end(call, "append")))


def _kron(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.kron(shape, call.tensor_arg("other")))


def _cross(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.cross(shape, call.tensor_arg("other"), call.optional_int_arg("dim")))


def _masked_select(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.masked_select(shape, call.tensor_arg("mask")))


def _nonzero(call: Call, shape: MaybeShape) -> Type:
    if call.bool_arg("as_tuple", default=False):
        return call.tensors(rules.nonzero_tuple(shape), call.default)
    return call.tensor(rules.nonzero(shape))


def _quantile(call: Call, shape: MaybeShape) -> Type:
    actuals = call.actuals("q")
    if not actuals:
        raise NotKnown
    q = call.shape_of(actuals[0])  # a float is a 0-d tensor
    keepdim = call.bool_arg("keepdim", default=False)
    return call.tensor(rules.quantile(shape, q, call.optional_int_arg("dim"), keepdim, op=call.op))


def _tensor_split(call: Call, shape: MaybeShape) -> Type:
    """`x.tensor_split(sections, dim)` / `(indices, dim)`; a tensor of indices or sections gives pieces of unknown number."""
    return call.tensors(rules.tensor_split(shape, _sections_or_indices(call), _int(call, "dim", 0)))


def _directional_split(call: Call, shape: MaybeShape) -> Type:
    """`x.vsplit(sections)` / `hsplit` / `dsplit`, or `(indices)`."""
    return call.tensors(rules.directional_split(shape, _sections_or_indices(call), call.op))


def _sections_or_indices(call: Call) -> Size | list[Size]:
    actuals = call.actuals("sections", "indices", "tensor_indices_or_sections", "indices_or_sections")
    if not actuals:
        raise NotKnown
    listed = call.sequence_of(actuals[0])
    if listed is None and not is_int_like(actuals[0].type) and call.size_of(actuals[0]) is None:
        raise NotKnown
    return listed if listed is not None else call.size_of(actuals[0])


def _aminmax(call: Call, shape: MaybeShape) -> Type:
    keepdim = call.bool_arg("keepdim", default=False)
    return call.tensors(rules.aminmax(shape, call.optional_int_arg("dim"), keepdim), call.default)


def _kthvalue(call: Call, shape: MaybeShape) -> Type:
    k = call.actuals("k")
    if not k:
        raise NotKnown
    keepdim = call.bool_arg("keepdim", default=False)
    return call.tensors(rules.kthvalue(shape, call.size_of(k[0]), _int(call, "dim", -1), keepdim), call.default)


METHODS: dict[str, Handler] = {
    "ravel": _ravel,
    "msort": _msort,
    "numel": _numel,
    "dim": _dim,
    "ndimension": _dim,
    "diag": _diag,
    "diagflat": _diagflat,
    "diag_embed": _diag_embed,
    "diff": _diff,
    "kron": _kron,
    "cross": _cross,
    "masked_select": _masked_select,
    "nonzero": _nonzero,
    "argwhere": _nonzero,
    "quantile": _quantile,
    "nanquantile": _quantile,
    "tensor_split": _tensor_split,
    "vsplit": _directional_split,
    "hsplit": _directional_split,
    "dsplit": _directional_split,
    "aminmax": _aminmax,
    "kthvalue": _kthvalue,
}


# -- functions only ---------------------------------------------------------------------------------


def _tensordot(call: Call) -> Type:
    a, b = call.tensor_arg("a"), call.tensor_arg("b")
    actuals = call.actuals("dims")
    if not actuals:
        return _result(call, rules.tensordot(a, b, 2))
    lists = _pair_of_int_lists(actuals[0].expr)
    if lists is not None:
        return _result(call, rules.tensordot(a, b, lists))
    dims = call.int_of(actuals[0])
    if dims is None:
        raise NotKnown
    return _result(call, rules.tensordot(a, b, dims))


def _ints(expr: Expression) -> list[int] | None:
    """The ints of a literal list or tuple (`[1, -1]`)."""
    if not isinstance(expr, (ListExpr, TupleExpr)):
        return None
    sizes = [literal_int(item) for item in expr.items]
    values = [None if size is None else size.const_value for size in sizes]
    return None if None in values else [v for v in values if v is not None]


def _pair_of_int_lists(expr: Expression) -> tuple[list[int], list[int]] | None:
    """`([1, 2], [0, 1])`: `tensordot`'s dims named on each side."""
    if not isinstance(expr, (ListExpr, TupleExpr)) or len(expr.items) != 2:
        return None
    first, second = _ints(expr.items[0]), _ints(expr.items[1])
    return None if first is None or second is None else (first, second)


def _stacking(rule: Callable[[list[MaybeShape]], MaybeShape]) -> FunctionHandler:
    def handler(call: Call) -> Type:
        shapes = call.tensor_list_arg("tensors")
        if shapes is None:
            raise NotKnown
        return call.tensor(rule(shapes))

    return handler


def _atleast(n: int) -> FunctionHandler:
    """`torch.atleast_2d(x)`: one tensor (several, or a list of them, give a tuple, left to torch's types)."""

    def handler(call: Call) -> Type:
        actuals = call.actuals("tensors")
        if len(actuals) != 1:
            raise NotKnown
        return _result(call, rules.atleast(call.shape_of(actuals[0]), n))

    return handler


def _moments(call: Call) -> Type:
    """`torch.var_mean(x, dim, keepdim=...)` / `std_mean`: two tensors reduced over `dim`."""
    shape = call.tensor_arg("input")
    dim = call.dims_arg("dim", default=None)
    keepdim = call.bool_arg("keepdim", default=False)
    out = rules.reduce(shape, dim, keepdim, op=call.op)  # type: ignore[arg-type]
    return call.tensors([out, out], call.default)


def where_condition(call: Call) -> Type:
    """`torch.where(condition)`: a tuple of 1-d index tensors, one per dim of the condition."""
    return call.tensors(rules.nonzero_tuple(call.tensor_arg("condition")), call.default)


FUNCTIONS: dict[str, FunctionHandler] = {
    "torch.functional.tensordot": _tensordot,
    "torch.functional.atleast_1d": _atleast(1),
    "torch.functional.atleast_2d": _atleast(2),
    "torch.functional.atleast_3d": _atleast(3),
    "torch._C._VariableFunctions.hstack": _stacking(rules.hstack),
    "torch._C._VariableFunctions.vstack": _stacking(rules.vstack),
    "torch._C._VariableFunctions.row_stack": _stacking(rules.vstack),
    "torch._C._VariableFunctions.dstack": _stacking(rules.dstack),
    "torch._C._VariableFunctions.column_stack": _stacking(rules.column_stack),
    "torch._C._VariableFunctions.var_mean": _moments,
    "torch._C._VariableFunctions.std_mean": _moments,
}
