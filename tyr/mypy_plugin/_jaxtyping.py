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

The size variables cannot be among the function's type variables while mypy
analyses it (mypy looks each one up by name in the body), so they join them
once semantic analysis is over (`Listing`): mypy then solves them wherever it
meets the function as a value, and unifies them in an override check.  A size
variable's identity is its place among its signature's names (the first name,
the second, ...), the same in every function: two functions annotated alike
have one type (an override, a table of functions), and every call freshens them
(`listed`), as mypy freshens a generic function's own type variables.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssignmentStmt,
    Decorator,
    Expression,
    FuncDef,
    FuncItem,
    Import,
    ImportAll,
    ImportFrom,
    MypyFile,
    NameExpr,
    Var,
)
from mypy.plugin import AnalyzeTypeContext, CheckerPluginInterface
from mypy.semanal import SemanticAnalyzer
from mypy.tvar_scope import TypeVarLikeScope
from mypy.typeanal import TypeAnalyser
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    RawExpressionType,
    Type,
    TypeOfAny,
    TypeVarId,
    TypeVarLikeType,
    TypeVarTupleType,
    TypeVarType,
    UnboundType,
    UnpackType,
    get_proper_type,
)
from mypy.util import correct_relative_import

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
from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._dtypes import IndexDtype
from tyr.mypy_plugin._types import UNKNOWN, Lookup, Scope, is_shaped, shape_class, shape_variables, unknown_rank

ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})

DTYPES = frozenset(
    {
        "AbstractDtype",
        "BFloat16",
        "Bool",
        "Complex",
        "Complex64",
        "Complex128",
        "Float",
        "Float4e2m1fn",
        "Float8e4m3b11fnuz",
        "Float8e4m3fn",
        "Float8e4m3fnuz",
        "Float8e5m2",
        "Float8e5m2fnuz",
        "Float16",
        "Float32",
        "Float64",
        "Inexact",
        "Int",
        "Int2",
        "Int4",
        "Int8",
        "Int16",
        "Int32",
        "Int64",
        "Integer",
        "Key",
        "Num",
        "Real",
        "Shaped",
        "UInt",
        "UInt2",
        "UInt4",
        "UInt8",
        "UInt16",
        "UInt32",
        "UInt64",
    }
)
"""jaxtyping's dtype classes: `Float[array, shape]` and its kin."""

_PREFIX = "<jaxtyping>."  # the full name of every size variable made here
_NAMESPACE = "<jaxtyping>"  # their identity: this, and their place among the signature's names


# -- which names are jaxtyping's -------------------------------------------------------------------


class Imports:
    """Which names of a module are jaxtyping's dtype classes, followed through re-exports (once per name)."""

    def __init__(self, module: Callable[[str], MypyFile | None]) -> None:
        self._module = module
        self._known: dict[tuple[str, str], str | None] = {}

    def clear(self) -> None:
        self._known.clear()

    def dtype_of(self, ctx: AnalyzeTypeContext) -> str | None:
        """The jaxtyping dtype class (`"Float"`) the annotation's name refers to, or None."""
        api = ctx.api
        if not (isinstance(api, TypeAnalyser) and isinstance(api.api, SemanticAnalyzer)):
            return None
        name = ctx.type.name
        head, _, last = name.rpartition(".")
        if last == "Annotated":
            return None
        if head:
            node = api.lookup_qualified(head, ctx.context, suppress_errors=True)
            return last if node is not None and _is_jaxtyping_module(node.node) and last in DTYPES else None
        return self._imported(api.api.cur_mod_node, name, 0)

    def dtype_named(self, module: MypyFile, name: str) -> str | None:
        """The same for a name written in `module` at its top level (`Bool`, `jt.Bool`)."""
        head, _, last = name.rpartition(".")
        if head:
            node = module.names.get(head)
            return last if node is not None and _is_jaxtyping_module(node.node) and last in DTYPES else None
        return self._imported(module, name, 0)

    def _imported(self, module: MypyFile, name: str, depth: int) -> str | None:
        key = (module.fullname, name)
        if key not in self._known:
            self._known[key] = None  # (an import cycle ends here)
            self._known[key] = self._find(module, name, depth)
        return self._known[key]

    def _find(self, module: MypyFile, name: str, depth: int) -> str | None:
        for imported in module.imports:
            if not isinstance(imported, (ImportFrom, ImportAll)):
                continue
            source, _ = correct_relative_import(
                module.fullname, imported.relative, imported.id, module.path.endswith("__init__.py")
            )
            if isinstance(imported, ImportAll):
                if _is_jaxtyping(source) and name in DTYPES:
                    return name
                continue
            for original, alias in imported.names:
                if (alias or original) != name:
                    continue
                if _is_jaxtyping(source):
                    return original if original in DTYPES else None
                other = self._module(source) if depth < 4 else None
                if other is not None:
                    return self._imported(other, original, depth + 1)
        return None


STATIC = "tyr._static"
"""What mypy must load in a module annotated with jaxtyping: the types tyr writes sizes with."""


def imports_jaxtyping(file: MypyFile) -> bool:
    for imported in file.imports:
        if isinstance(imported, (ImportFrom, ImportAll)) and _is_jaxtyping(imported.id):
            return True
        if isinstance(imported, Import) and any(_is_jaxtyping(name) for name, _ in imported.ids):
            return True
    return False


def _is_jaxtyping_module(node: object) -> bool:
    return isinstance(node, MypyFile) and _is_jaxtyping(node.fullname)


def _is_jaxtyping(module: str) -> bool:
    return module == "jaxtyping" or module.startswith("jaxtyping.")


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
    names = _names_here(ctx, scope)
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


def _shape_args(dims: tuple[JaxDim, ...], names: _Names | None, scope: Scope) -> list[Type]:
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


def _expression(dim: SymbolicDim, names: _Names | None, scope: Scope) -> Type:
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


# -- the size variables of a function ---------------------------------------------------------------


class _Names:
    """The size variables jaxtyping's names stand for where an annotation is read."""

    def __init__(self, frame: TypeVarLikeScope, module: str, scope: Scope, create: bool) -> None:
        self.frame = frame
        self.module = module
        self.scope = scope
        self.create = create

    def single(self, name: str) -> TypeVarType | None:
        var = self._get(_PREFIX + name, name, variadic=False)
        return var if isinstance(var, TypeVarType) else None

    def variadic(self, name: str) -> TypeVarTupleType | None:
        var = self._get(f"{_PREFIX}*{name}", name, variadic=True)
        return var if isinstance(var, TypeVarTupleType) else None

    def _get(self, key: str, name: str, *, variadic: bool) -> TypeVarLikeType | None:
        var = self.frame.scope.get(key)
        if var is not None or not self.create:
            return var
        index = sum(1 for k in self.frame.scope if k.startswith(_PREFIX))
        var_id = TypeVarId(-(index + 1), namespace=_NAMESPACE)
        default = AnyType(TypeOfAny.from_omitted_generics)
        if variadic:
            fallback = self.scope.instance(_names.TUPLE, [self.scope.instance(_names.OBJECT)])
            var = TypeVarTupleType(name, key, var_id, fallback, fallback, default)
        else:
            var = TypeVarType(name, key, var_id, [], self.scope.instance(_names.OBJECT), default)
        self.frame.bind_existing(var)
        return var


def _names_here(ctx: AnalyzeTypeContext, scope: Scope) -> _Names | None:
    """The names of the function whose signature or body holds the annotation (None outside one)."""
    api = ctx.api
    if not (isinstance(api, TypeAnalyser) and isinstance(api.api, SemanticAnalyzer)):
        return None
    frame = api.tvar_scope
    if frame.is_class_scope or not frame.namespace:
        return None  # module level, a class body, or a Callable[...] type inside a signature
    analyzer = api.api
    stack = analyzer.function_stack
    if not stack or stack[-1].fullname != frame.namespace:
        return _Names(frame, analyzer.cur_mod_id, scope, create=True)  # the function's own signature
    function = stack[-1]
    statement = analyzer.statement
    if isinstance(statement, AssignmentStmt) and not all(isinstance(t, NameExpr) for t in statement.lvalues):
        return None  # `self.x: ...`: an attribute outlives the call
    signature = function.type
    if isinstance(signature, CallableType):
        for var in signature_variables(signature):
            if var.fullname not in frame.scope:
                frame.bind_existing(var)
    return _Names(frame, analyzer.cur_mod_id, scope, create=False)


def signature_variables_of(function: FuncDef) -> list[TypeVarLikeType]:
    return signature_variables(function.type) if isinstance(function.type, CallableType) else []


def signature_variables(signature: CallableType) -> list[TypeVarLikeType]:
    """The size variables a signature's jaxtyping annotations introduced."""
    found: dict[TypeVarId, TypeVarLikeType] = {}
    for t in (*signature.arg_types, signature.ret_type):
        found.update(shape_variables(t))
    return [var for var in found.values() if var.fullname.startswith(_PREFIX)]


def listed(signature: CallableType) -> CallableType:
    """The signature with its jaxtyping size variables among its type variables, to be freshened with them."""
    extra = [var for var in signature_variables(signature) if var not in signature.variables]
    return signature.copy_modified(variables=[*signature.variables, *extra]) if extra else signature


class Listing:
    """Puts the size variables of jaxtyping signatures among their functions' type variables.

    That waits until mypy has analysed the module (it would look the variables up by
    name in each body): `note` records a module whose signatures got some, and the
    first hook mypy asks for while type checking lists them (`sweep`; no module is
    half analysed then).  Functions of module level and of classes are listed; a
    function nested in another is only seen there, where calls freshen its variables.
    """

    def __init__(self) -> None:
        self.modules: set[str] = set()
        self.decorated: list[Decorator] = []  # listed, but mypy has not yet typed what the decorators return

    @property
    def pending(self) -> bool:
        return bool(self.modules or self.decorated)

    def note(self, module: str) -> None:
        self.modules.add(module)

    def sweep(self, modules: dict[str, MypyFile]) -> None:
        decorated, self.decorated = self.decorated, []
        for decorator in decorated:
            self._list_decorated(decorator)
        names, self.modules = self.modules, set()
        for name in names:
            tree = modules.get(name)
            for _, symbol, _ in tree.local_definitions() if tree is not None else ():
                node = symbol.node
                if isinstance(node, Decorator):
                    self._list_decorated(node)
                    node = node.func
                if isinstance(node, FuncDef) and isinstance(node.type, CallableType):
                    node.type = listed(node.type)

    def _list_decorated(self, decorator: Decorator) -> None:
        """The decorated function's type (`@jaxtyped(...)` keeps it), listed once mypy has it."""
        if decorator.var.type is None:
            if signature_variables_of(decorator.func):
                self.decorated.append(decorator)
        elif isinstance(decorator.var.type, CallableType):
            decorator.var.type = listed(decorator.var.type)


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
