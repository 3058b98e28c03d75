"""Hooks for `torch.linalg` (declared by tyr's stub `torch-stubs/linalg`); the rules are
`tyr.shape_rules.linalg`'s, and `cross` / `matmul`'s are `tyr.shape_rules.matmul`'s.

`FUNCTIONS` is merged into `_functions.FUNCTIONS`; `METHODS`, the tensor methods (and their `torch.*`
forms) that are these ops under older names (`x.inverse()` is `linalg.inv`), into `_tensors.METHODS`.  A function returning several tensors
gives a tuple whose class is the named tuple of torch's stubs with the same fields
(`torch.return_types._linalg_eigh` for `eigh`'s `eigenvalues, eigenvectors`), so that
`.eigenvalues` reads the first item.  torch spells a dim `dim` or `axis`, `keepdim` or
`keepdims`.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.types import AnyType, Instance, TupleType, Type, TypeOfAny, get_proper_type

from tyr import shape_rules as rules
from tyr.mypy_plugin import _names
from tyr.mypy_plugin._args import Call, NotKnown
from tyr.shape_rules import UNKNOWN, MaybeShape
from tyr.shape_rules import linalg as la

FunctionHandler = Callable[[Call], Type]
Handler = Callable[[Call, MaybeShape], Type]


def _input(call: Call) -> MaybeShape:
    return call.tensor_arg("A", "input")


def _named(fields: str) -> Callable[[Call, tuple[MaybeShape, ...] | None], Type]:
    """The tensors as the named tuple `torch.return_types.<fields>`."""

    def build(call: Call, shapes: tuple[MaybeShape, ...] | None) -> Type:
        return call.tensors(shapes, call.scope.instance(f"torch.return_types.{fields}"))

    return build


def _order(call: Call, default: la.Order) -> la.Order:
    """A norm's `ord`: a literal number or name, `UNKNOWN` for another number, the default when not given."""
    actuals = call.actuals("ord")
    if not actuals:
        return default
    if call.is_none(actuals[0]):
        return None
    name, value = call.str_of(actuals[0]), call.float_of(actuals[0])
    if name is not None or value is not None:
        return name if name is not None else value
    t = get_proper_type(actuals[0].type)
    if isinstance(t, Instance) and t.type.fullname in (_names.INT, _names.FLOAT):
        return UNKNOWN
    raise NotKnown


def _keepdim(call: Call) -> bool:
    return call.bool_arg("keepdim", "keepdims", default=False)


def _norm(call: Call) -> Type:
    dim = call.dims_arg("dim", "axis", default=None)
    return call.tensor(la.norm(_input(call), _order(call, None), dim, _keepdim(call)))  # type: ignore[arg-type]


def _vector_norm(call: Call) -> Type:
    dim = call.dims_arg("dim", "axis", default=None)
    return call.tensor(la.vector_norm(_input(call), _order(call, 2), dim, _keepdim(call)))  # type: ignore[arg-type]


def _matrix_norm(call: Call) -> Type:
    dim = call.dims_arg("dim", "axis", default=(-2, -1))
    if dim is None:
        raise NotKnown  # torch takes no None here (mypy says so)
    dims = (dim,) if isinstance(dim, int) else dim
    return call.tensor(la.matrix_norm(_input(call), _order(call, "fro"), dims, _keepdim(call)))  # type: ignore[arg-type]


def _solve(call: Call) -> Type:
    left = call.bool_arg("left", default=True)
    return call.tensor(la.solve(_input(call), call.tensor_arg("B"), left))


def _same(rule: Callable[..., MaybeShape]) -> FunctionHandler:
    """An op of one batch of matrices and one result: `inv`, `det`, `svdvals`, ..."""

    def handler(call: Call) -> Type:
        return call.tensor(rule(_input(call), op=f"linalg.{call.op}"))

    return handler


def _uplo(call: Call) -> str | None:
    actuals = call.actuals("UPLO")
    return call.str_of(actuals[0]) if actuals else "L"


def _eigh(call: Call) -> Type:
    return _named("_linalg_eigh")(call, la.eigh(_input(call), _uplo(call)))


def _eigvalsh(call: Call) -> Type:
    out = la.eigh(_input(call), _uplo(call), op="linalg.eigvalsh")
    return call.tensor(None if out is None else out[0])


def _slogdet(call: Call) -> Type:
    return _named("slogdet")(call, la.slogdet(_input(call)))


def _qr(call: Call) -> Type:
    mode = call.str_arg("mode") if call.given("mode") else "reduced"
    if mode is None:
        raise NotKnown
    return _named("qr")(call, la.qr(_input(call), mode))


def _svd(call: Call) -> Type:
    full = call.bool_arg("full_matrices", default=True)
    return _named("_linalg_svd")(call, la.svd(_input(call), full))


def _lstsq(call: Call) -> Type:
    """`(solution, residuals, rank, singular_values)`: the solution's shape; the others' depend on the driver
    and the values, and stay `Any`."""
    solution = la.lstsq(_input(call), call.tensor_arg("b", "B"))
    if solution is None:
        raise NotKnown
    unknown = AnyType(TypeOfAny.special_form)
    return TupleType([call.tensor(solution), unknown, unknown, unknown], call.scope.instance("torch.linalg._linalg_lstsq"))


def _multi_dot(call: Call) -> Type:
    shapes = call.tensor_list_arg("tensors")
    if shapes is None:
        raise NotKnown
    return call.tensor(la.multi_dot(shapes))


def _pinv(call: Call) -> Type:
    hermitian = call.bool_arg("hermitian", default=False)
    tolerances = [call.shape_of(a[0]) for a in map(call.actuals, ("rcond", "atol", "rtol")) if a and not call.is_none(a[0])]
    return call.tensor(la.pinv(_input(call), hermitian, tolerances))


def _cross(call: Call) -> Type:
    dim = call.int_arg("dim", "axis", default=-1)
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(rules.cross(_input(call), call.tensor_arg("other"), dim))


def _vecdot(call: Call) -> Type:
    dim = call.int_arg("dim", "axis", default=-1)
    if not isinstance(dim, int):
        raise NotKnown
    return call.tensor(la.vecdot(call.tensor_arg("x"), call.tensor_arg("y"), dim))


def _matmul(call: Call) -> Type:
    return call.tensor(rules.matmul(_input(call), call.tensor_arg("other"), op="linalg.matmul"))


_LINALG = "torch.linalg."
FUNCTIONS: dict[str, FunctionHandler] = {
    _LINALG + "solve": _solve,
    _LINALG + "inv": _same(la.square),
    _LINALG + "cholesky": _same(la.square),
    _LINALG + "matrix_exp": _same(la.square),
    _LINALG + "matrix_power": _same(la.square),
    _LINALG + "det": _same(la.det),
    _LINALG + "slogdet": _slogdet,
    _LINALG + "eigh": _eigh,
    _LINALG + "eigvalsh": _eigvalsh,
    _LINALG + "eigvals": _same(la.eigvals),
    _LINALG + "qr": _qr,
    _LINALG + "svd": _svd,
    _LINALG + "svdvals": _same(la.svdvals),
    _LINALG + "pinv": _pinv,
    _LINALG + "norm": _norm,
    _LINALG + "vector_norm": _vector_norm,
    _LINALG + "matrix_norm": _matrix_norm,
    _LINALG + "cross": _cross,
    _LINALG + "matmul": _matmul,
    _LINALG + "vecdot": _vecdot,
    _LINALG + "lstsq": _lstsq,
    _LINALG + "multi_dot": _multi_dot,
}


# -- the same ops as tensor methods -------------------------------------------------------------------


def _method(rule: Callable[..., MaybeShape]) -> Handler:
    """`x.det()`, `x.inverse()`, `x.matrix_power(n)`, ...: the `torch.linalg` op of the receiver."""

    def handler(call: Call, shape: MaybeShape) -> Type:
        return call.tensor(rule(shape, op=call.op))

    return handler


def _slogdet_method(call: Call, shape: MaybeShape) -> Type:
    return _named("slogdet")(call, la.slogdet(shape, op=call.op))


def _pinverse(call: Call, shape: MaybeShape) -> Type:
    """`x.pinverse(rcond)`: `linalg.pinv`; `rcond` is a float, one tolerance for every matrix."""
    return call.tensor(la.pinv(shape, op=call.op))


METHODS: dict[str, Handler] = {
    "det": _method(la.det),
    "logdet": _method(la.det),
    "slogdet": _slogdet_method,
    "inverse": _method(la.square),
    "matrix_exp": _method(la.square),
    "matrix_power": _method(la.square),
    "pinverse": _pinverse,
}
