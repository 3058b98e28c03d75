"""jaxtyping's annotations read as shapes: `Float[torch.Tensor, "b c"]` is `Tensor[b, c]`.

To mypy, jaxtyping's `Float`, `Int`, `Shaped`, ... are `typing.Annotated` (jaxtyping
says so to static checkers), so `Float[Tensor, "b c"]` would be a bare `Tensor`.
tyr's plugin reads an `Annotated` whose name the module imported from jaxtyping here
(any other `Annotated` is mypy's):

* the shape string is parsed by `tyr._jaxtyping_dims`, as the runtime parses it;
* the names (`b`, `*batch`) of a function's signature are that function's size
  variables, shared by its parameters and its return type, as jaxtyping binds
  them once per call; an annotation in the function's body sees the signature's
  names; anywhere else (module level, a class body, `self.x: ...`, a name the
  signature does not have) a name is an unknown size;
* fixed sizes and `+ - * //` expressions are sizes as in `Tensor[...]`;
* what tyr cannot express is unknown, never an error: `_`, `#b`, `#3` and other
  expressions are unknown sizes; `...` and `*#b` make the whole shape unknown;
* only torch tensors get shapes: `Float[np.ndarray, "n"]` stays mypy's `ndarray`;
* a string jaxtyping itself refuses (`"b, c"`, `"*a *b"`) is reported.

Which names are jaxtyping's is `_jaxtyping_imports`' question; the size variables
a function's names stand for are `_jaxtyping_names`'.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import Expression, FuncItem, NameExpr, Var
from mypy.plugin import AnalyzeTypeContext, CheckerPluginInterface
from mypy.typeanal import TypeAnalyser
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    RawExpressionType,
    Type,
    TypeOfAny,
    UnboundType,
    UnpackType,
    get_proper_type,
)

from tyr._jaxtyping_dims import (
    FixedDim,
    JaxDim,
    JaxShapeError,
    NamedDim,
    SymbolicDim,
    VariadicDim,
    parse_dims,
)
from tyr._symbolic import sym
from tyr.mypy_plugin import _errors
from tyr.mypy_plugin._dtypes import IndexDtype
from tyr.mypy_plugin._jaxtyping_imports import Imports
from tyr.mypy_plugin._jaxtyping_names import Listing, Names, names_here
from tyr.mypy_plugin._types import UNKNOWN, Lookup, Scope, is_shaped, shape_class, unknown_rank

ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})


# -- annotations --------------------------------------------------------------------------------------


def annotated_hook(
    ctx: AnalyzeTypeContext, fullname: str, lookup: Lookup, imports: Imports, listing: Listing
) -> Type:
    """`Annotated[...]`: a jaxtyping array as a shaped tensor, anything else as mypy reads it."""
    if imports.dtype_of(ctx) is None or len(ctx.type.args) != 2:
        api = ctx.api
        if isinstance(api, TypeAnalyser):
            analyzed = api.try_analyze_special_unbound_type(ctx.type, fullname)
            if analyzed is not None:
                return analyzed
        return api.analyze_type(ctx.type.args[0]) if ctx.type.args else AnyType(TypeOfAny.from_error)
    return _array(ctx, lookup, listing)


def _array(ctx: AnalyzeTypeContext, lookup: Lookup, listing: Listing) -> Type:
    array, shape = ctx.type.args
    analyzed = ctx.api.analyze_type(array)
    tensor = get_proper_type(analyzed)
    if not (isinstance(tensor, Instance) and shape_class(tensor.type)):
        return analyzed  # not a torch tensor (numpy, jax): what mypy makes of it
    scope = Scope(lookup)
    text = _text(shape)
    if text is None or is_shaped(tensor):
        return tensor.copy_modified(args=[unknown_rank(scope)])  # not a string, or an array annotated twice
    try:
        dims = parse_dims(text)
    except JaxShapeError as err:
        ctx.api.fail(_errors.BAD_JAXTYPING.format(text=text, why=err), ctx.context, code=_errors.ANNOTATION)
        return tensor.copy_modified(args=[unknown_rank(scope)])
    names = names_here(ctx, scope)
    if names is not None and names.create:
        listing.note(names.module)
    return tensor.copy_modified(args=_shape_args(dims, names, scope))


def _text(shape: Type) -> str | None:
    """The shape string as written (mypy reads `"b"` as the name `b`, `"b c"` as a raw string)."""
    if isinstance(shape, RawExpressionType):
        return shape.literal_value if isinstance(shape.literal_value, str) else None
    if isinstance(shape, UnboundType) and shape.original_str_expr is not None:
        return shape.original_str_expr
    return None


def _shape_args(dims: tuple[JaxDim, ...], names: Names | None, scope: Scope) -> list[Type]:
    args: list[Type] = []
    for dim in dims:
        if isinstance(dim, VariadicDim):
            group = names.variadic(dim.name) if names is not None and dim.name is not None and not dim.broadcast else None
            if group is None:
                return [unknown_rank(scope)]  # `...`, `*#b`: dims tyr cannot count
            args.append(UnpackType(group))
        elif isinstance(dim, NamedDim):
            single = names.single(dim.name) if names is not None and not dim.broadcast else None
            args.append(single if single is not None else UNKNOWN)
        elif isinstance(dim, FixedDim):
            args.append(scope.int_literal(dim.size) if dim.size >= 0 and not dim.broadcast else UNKNOWN)
        elif isinstance(dim, SymbolicDim):
            args.append(_expression(dim, names, scope))
        else:
            args.append(UNKNOWN)
    return args


def _expression(dim: SymbolicDim, names: Names | None, scope: Scope) -> Type:
    if dim.expr is None or dim.broadcast:
        return UNKNOWN
    renames = {}
    for name in dim.expr.symbols:
        var = names.single(name) if names is not None else None
        if var is None:
            return UNKNOWN
        scoped = scope.name_of(var)
        if scoped != name:
            renames[name] = sym(scoped)
    return scope.size_type(dim.expr.substitute(renames) if renames else dim.expr)


# -- dtypes ------------------------------------------------------------------------------------------

_INDEX_DTYPES: dict[str, IndexDtype] = {
    "Bool": "bool",
    "UInt8": "bool",  # (torch indexes with a uint8 tensor as with a mask)
    "Int": "int",
    "Int8": "int",
    "Int16": "int",
    "Int32": "int",
    "Int64": "int",
}


def declared_index_dtype(api: CheckerPluginInterface, expr: Expression) -> IndexDtype:
    """An index tensor's dtype from its parameter's jaxtyping annotation (`mask: Bool[Tensor, "n"]`), if any.

    Tensor types carry no dtype; this is where the dtype part of a jaxtyping
    annotation tells tyr something: `x[mask]` picks elements, `x[idx]` gathers rows.
    """
    if not (isinstance(api, TypeChecker) and isinstance(expr, NameExpr) and isinstance(expr.node, Var)):
        return None
    function = api.scope.current_function()
    signature = function.unanalyzed_type if function is not None else None
    if not (isinstance(function, FuncItem) and isinstance(signature, CallableType)):
        return None
    for argument, annotation in zip(function.arguments, signature.arg_types):
        if argument.variable is expr.node:
            written = get_proper_type(annotation)
            name = written.name if isinstance(written, UnboundType) else None
            dtype = Imports(api.modules.get).dtype_named(api.tree, name) if name is not None else None
            return _INDEX_DTYPES.get(dtype) if dtype is not None else None
    return None
