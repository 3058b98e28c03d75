"""Hooks for ops that had none: `take`, `trace`, `inner`, `unique` / `unique_consecutive`, `resize_` /
`resize_as_`, `cartesian_prod`, `combinations`, `block_diag`, `chain_matmul`, `vander`, `trapezoid` / `trapz` / `cumulative_trapezoid`,
`F.channel_shuffle`, `F.kl_div`, `F.bilinear`, `searchsorted`, `bucketize`, `renorm`, `prelu`, `as_strided`, `histc`,
`cov` / `corrcoef`, `isin`, `pdist`, `unravel_index`, the windows (`hann_window`, ...), `range`.

`METHODS` holds the tensor-method handlers (merged into `_tensors.METHODS`), `FUNCTIONS` the handlers
of the functions that have no method form; the rules are `tyr.shape_rules`'.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import ARG_POS
from mypy.types import AnyType, Type, get_proper_type

from tyr import shape_rules as rules
from tyr._symbolic import const
from tyr.mypy_plugin._args import Call, NotKnown
from tyr.mypy_plugin._rebinding import in_code_with_shapes
from tyr.mypy_plugin._types import NotATensor
from tyr.shape_rules import MaybeShape, creation
from tyr.shape_rules import linalg as la
from tyr.shape_rules import nn_functional as nnf

Handler = Callable[[Call, MaybeShape], Type]
FunctionHandler = Callable[[Call], Type]


def typed_in_code_with_shapes(call: Call, result: Type) -> Type:
    """`result`, where torch declares the callee's result `Any` (`block_diag`, `Tensor.unique`) only in code
    that adopted shapes: elsewhere a tensor would have mypy check what the code does with it, which plain
    mypy never did (as for a module's result, `_modules.call_hook`)."""
    if not isinstance(get_proper_type(call.default), AnyType):
        return result
    if in_code_with_shapes(call.api):
        return result
    return call.default


def _given(call: Call, name: str) -> bool:
    actuals = call.actuals(name)
    return bool(actuals) and not call.is_none(actuals[0])


# -- tensor methods (and their function forms) ----------------------------------------------------


def _take(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.take(shape, call.tensor_arg("index")))


def _trace(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.trace(shape))


def _inner(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(rules.inner(shape, call.tensor_arg("other")))


def _unique(call: Call, shape: MaybeShape) -> Type:
    """`x.unique(dim=...)`: the distinct values (or slices), a tuple with `return_inverse` / `return_counts`."""
    if shape is None:
        raise NotKnown  # torch's `Any`: no rank to tell
    dim = call.optional_int_arg("dim")
    inverse = call.bool_arg("return_inverse", default=False)
    counts = call.bool_arg("return_counts", default=False)
    out = rules.unique(shape, dim, inverse, counts, op=call.op)
    result = call.tensors(out, call.default) if inverse or counts else call.tensor(out)  # type: ignore[arg-type]
    return typed_in_code_with_shapes(call, result)


def _resize(call: Call, shape: MaybeShape) -> Type:
    """`x.resize_(*sizes)`, `x.as_strided(size, stride)`: the tensor takes the sizes given (`x.resize_as_(y)`:
    `y`'s).  (Whether `as_strided`'s view fits in the storage is not ruled.)"""
    if call.op == "resize_as_":
        return call.tensor(call.tensor_arg("the_template"))
    sizes = call.sizes_arg("size")
    if sizes is None:
        raise NotKnown
    return call.tensor(creation.from_sizes(sizes, op=call.op))


def _renorm(call: Call, shape: MaybeShape) -> Type:
    dim = call.int_arg("dim")
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.renorm(shape, dim, op=call.op))


def _prelu(call: Call, shape: MaybeShape) -> Type:
    return call.tensor(nnf.prelu(shape, call.tensor_arg("weight")))


def _histc(call: Call, shape: MaybeShape) -> Type:
    bins = call.actuals("bins")
    return call.tensor(rules.histc(shape, call.size_of(bins[0]) if bins else 100))


def _cov(call: Call, shape: MaybeShape) -> Type:
    """`x.cov(fweights=..., aweights=...)`, `x.corrcoef()`."""
    fweights, aweights = (call.tensor_arg(name) if _given(call, name) else None for name in ("fweights", "aweights"))
    return call.tensor(rules.cov(shape, fweights, aweights, op=call.op))


METHODS: dict[str, Handler] = {
    "histc": _histc,
    "cov": _cov,
    "corrcoef": _cov,
    "renorm": _renorm,
    "prelu": _prelu,
    "renorm_": _renorm,
    "take": _take,
    "trace": _trace,
    "inner": _inner,
    "unique": _unique,
    "unique_consecutive": _unique,
    "resize_": _resize,
    "resize_as_": _resize,
    "as_strided": _resize,
    "as_strided_": _resize,
}


# -- functions only ---------------------------------------------------------------------------------


def _listed(call: Call) -> list[MaybeShape]:
    """The shapes of the tensors given one by one for a `*tensors` parameter."""
    actuals = call.actuals("tensors")
    if any(a.kind != ARG_POS for a in actuals):
        raise NotKnown  # `*xs`: how many is not known
    return [call.shape_of(a) for a in actuals]


def _cartesian_prod(call: Call) -> Type:
    return call.tensor(rules.cartesian_prod(_listed(call)))


def _block_diag(call: Call) -> Type:
    return typed_in_code_with_shapes(call, call.tensor(rules.block_diag(_listed(call))))


def _chain_matmul(call: Call) -> Type:
    actuals = call.actuals("matrices")
    if not actuals or any(a.kind != ARG_POS for a in actuals):
        raise NotKnown  # `*ms`: how many is not known
    return typed_in_code_with_shapes(call, call.tensor(la.chain_matmul([call.shape_of(a) for a in actuals])))


def _vander(call: Call) -> Type:
    n = call.optional_int_arg("N")
    return call.tensor(rules.vander(call.tensor_arg("x"), n))


def _combinations(call: Call) -> Type:
    r = call.int_arg("r", default=2)
    if not isinstance(r, int):
        raise NotKnown
    replace = call.bool_arg("with_replacement", default=False)
    return call.tensor(rules.combinations(call.tensor_arg("input"), r, replace))


def _trapezoid(call: Call) -> Type:
    """`torch.trapezoid(y, x, dim=...)`, `trapezoid(y, dx=..., dim=...)`, `trapz`, `cumulative_trapezoid`."""
    dim = call.int_arg("dim", default=-1)
    if not isinstance(dim, int):
        raise NotKnown
    x = call.tensor_arg("x") if _given(call, "x") else rules.UNKNOWN
    rule = rules.cumulative_trapezoid if call.op == "cumulative_trapezoid" else rules.trapezoid
    return call.tensor(rule(call.tensor_arg("y"), x, dim))


def _channel_shuffle(call: Call) -> Type:
    """`F.channel_shuffle(x, groups)`: the shape stays; a groups count of unknown value checks the rank only."""
    actuals = call.actuals("groups")
    size = call.size_of(actuals[0]) if actuals else None
    groups = 1 if size is None else size if size.const_value is None else size.const_value
    return call.tensor(rules.channel_shuffle(call.tensor_arg("input"), groups))


def _kl_div(call: Call) -> Type:
    """`F.kl_div(input, target, reduction=...)`: the two broadcast; `"none"` keeps the shape, the rest give `()`."""
    if _given(call, "size_average") or _given(call, "reduce"):
        raise NotKnown  # the legacy arguments decide the reduction
    reduction = call.str_option("reduction", "mean")
    if reduction not in ("none", "mean", "sum", "batchmean"):
        raise NotKnown
    shape = nnf.elementwise_loss(
        call.tensor_arg("input"), call.tensor_arg("target"), "none" if reduction == "none" else "sum", op="kl_div"
    )
    return call.tensor(shape)


def _pad_sequence(call: Call) -> Type:
    """`pad_sequence(sequences, batch_first, padding_value, padding_side)`: `sequences` a list or tuple written
    out (its items' shapes, and their number), a list of one type (`list[Tensor[T, D]]`: the number unknown),
    or one tensor `(N, L, *)`, read as its `N` rows."""
    actuals = call.actuals("sequences")
    if len(actuals) != 1:
        raise NotKnown
    try:
        stacked = call.scope.tensor_shape(actuals[0].type)
    except NotATensor:
        shapes = call.tensor_list_arg("sequences")
        if shapes is not None:
            sequences, count = shapes, const(len(shapes))
        else:
            sequences, count = [call.element_shape("sequences")], None
    else:
        if stacked is None or rules.core.rank(stacked) in (None, 0):
            raise NotKnown
        rows = rules.core.sizes(stacked)
        sequences, count = [rows[1:]], rows[0]
    flags = call.actuals("batch_first")
    batch_first = call.bool_of(flags[0]) if flags else False
    side = call.actuals("padding_side")
    padding_side = call.str_of(side[0]) if side else "right"
    return call.tensor(rules.pad_sequence(sequences, count, batch_first, padding_side))


def _bilinear(call: Call) -> Type:
    has_bias = _given(call, "bias")
    bias = call.tensor_arg("bias") if has_bias else None
    input1, input2, weight = (call.tensor_arg(name) for name in ("input1", "input2", "weight"))
    return call.tensor(rules.bilinear(input1, input2, weight, bias, has_bias=has_bias))


def _searchsorted(call: Call) -> Type:
    """`torch.searchsorted(sorted_sequence, values, sorter=...)`: the shape of `values` (a number is 0-d)."""
    sorter = call.tensor_arg("sorter") if _given(call, "sorter") else None
    values = call.tensor_arg("input", "self")
    return call.tensor(rules.searchsorted(call.tensor_arg("sorted_sequence"), values, sorter))


def _bucketize(call: Call) -> Type:
    """`torch.bucketize(input, boundaries)`: the shape of `input` (a number is 0-d)."""
    return call.tensor(rules.bucketize(call.tensor_arg("input", "self"), call.tensor_arg("boundaries")))


def _isin(call: Call) -> Type:
    """`torch.isin(elements, test_elements)`: the shape of `elements` (a number is 0-d)."""
    elements, tests = call.tensor_arg("elements", "element"), call.tensor_arg("test_elements", "test_element")
    return call.tensor(rules.isin(elements, tests))


def _pdist(call: Call) -> Type:
    return call.tensor(rules.pdist(call.tensor_arg("input")))


def _unravel_index(call: Call) -> Type:
    sizes = call.sizes_arg("shape")
    if sizes is None:
        raise NotKnown
    return call.tensors(rules.unravel_index(call.tensor_arg("indices"), sizes), call.default)


def _window(call: Call) -> Type:
    length = call.actuals("window_length")
    if not length:
        raise NotKnown
    return call.tensor(creation.window(call.size_of(length[0]), op=call.op))


def _range(call: Call) -> Type:
    """`torch.range(start, end, step)`: its length where the three are literals."""
    bounds = [call.actuals(name) for name in ("start", "end", "step")]
    if not bounds[0] or not bounds[1]:
        raise NotKnown
    values = [call.float_of(actuals[0]) if actuals else 1 for actuals in bounds]
    known = [rules.UNKNOWN if v is None else v for v in values]
    return call.tensor(creation.inclusive_range(*known))


_VF = "torch._C._VariableFunctions."

FUNCTIONS: dict[str, FunctionHandler] = {
    "torch.functional.cartesian_prod": _cartesian_prod,
    "torch.functional.block_diag": _block_diag,
    "torch.functional.chain_matmul": _chain_matmul,
    _VF + "vander": _vander,
    _VF + "combinations": _combinations,
    _VF + "trapezoid": _trapezoid,
    _VF + "trapz": _trapezoid,
    _VF + "cumulative_trapezoid": _trapezoid,
    _VF + "channel_shuffle": _channel_shuffle,
    _VF + "bilinear": _bilinear,
    _VF + "searchsorted": _searchsorted,
    _VF + "bucketize": _bucketize,
    "torch.nn.functional.kl_div": _kl_div,
    "torch.nn.utils.rnn.pad_sequence": _pad_sequence,
    _VF + "isin": _isin,
    _VF + "pdist": _pdist,
    "torch.functional.unravel_index": _unravel_index,
    _VF + "range": _range,
    **{_VF + f"{kind}_window": _window for kind in ("hann", "hamming", "blackman", "bartlett", "kaiser")},
}
