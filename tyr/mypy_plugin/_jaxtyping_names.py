"""The size variables jaxtyping's names stand for: one per name of a function's signature.

jaxtyping binds a name once per call, for the call's arguments and return value;
here each name of a signature is a size variable of that function (a TypeVar, or a
TypeVarTuple for `*batch`), made when mypy analyses the signature and found again
by annotations in the function's body.  Anywhere else a name has no variable.

The variables cannot be among the function's type variables while mypy analyses
it (mypy looks each one up by name in the body), so they join them once semantic
analysis is over (`Listing`): mypy then solves them wherever it meets the function
as a value, and unifies them in an override check.  Before that (mypy may check
an override first), a variable's identity is its function's name and its place
among the signature's names (`forward`, the first name, ...): an override
annotated like the method it overrides has the same type.  Every call freshens
them (`listed`), as mypy freshens a generic function's own type variables; a value
that leaves its call otherwise (an attribute it is assigned to) forgets them.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.nodes import AssignmentStmt, Decorator, FuncDef, MypyFile, NameExpr
from mypy.plugin import AnalyzeTypeContext, AttributeContext
from mypy.type_visitor import TypeTranslator
from mypy.semanal import SemanticAnalyzer
from mypy.tvar_scope import TypeVarLikeScope
from mypy.typeanal import TypeAnalyser
from mypy.types import (
    AnyType,
    CallableType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeVarId,
    TypeVarLikeType,
    TypeVarTupleType,
    TypeVarType,
    UnpackType,
    get_proper_type,
)

from tyr.mypy_plugin import _names
from tyr.mypy_plugin._types import UNKNOWN, Lookup, Scope, normalise, shape_variables

_PREFIX = "<jaxtyping>."  # the full name of every size variable made here


class Names:
    """The size variables jaxtyping's names stand for where an annotation is read."""

    def __init__(self, frame: TypeVarLikeScope, module: str, scope: Scope, create: bool, first: int = 0) -> None:
        self.frame = frame
        self.namespace = _PREFIX + frame.namespace.rpartition(".")[2]  # the identity: with the place of a name
        self.module = module
        self.scope = scope
        self.create = create
        self.first = first  # the places taken by an enclosing function's names

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
        index = self.first + sum(1 for k in self.frame.scope if k.startswith(_PREFIX))
        var_id = TypeVarId(-(index + 1), namespace=self.namespace)
        default = AnyType(TypeOfAny.from_omitted_generics)
        if variadic:
            fallback = self.scope.instance(_names.TUPLE, [self.scope.instance(_names.OBJECT)])
            var = TypeVarTupleType(name, key, var_id, fallback, fallback, default)
        else:
            var = TypeVarType(name, key, var_id, [], self.scope.instance(_names.OBJECT), default)
        self.frame.bind_existing(var)
        return var


def names_here(ctx: AnalyzeTypeContext, scope: Scope) -> Names | None:
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
        # The function's own signature.  A nested function's names come after its parent's, whose
        # values its body may see (as closures).
        outer = stack[-1].type if stack else None
        taken = signature_variables(outer) if isinstance(outer, CallableType) else []
        first = max((-var.id.raw_id for var in taken), default=0)
        return Names(frame, analyzer.cur_mod_id, scope, create=True, first=first)
    function = stack[-1]
    statement = analyzer.statement
    if isinstance(statement, AssignmentStmt) and not all(isinstance(t, NameExpr) for t in statement.lvalues):
        return None  # `self.x: ...`: an attribute outlives the call
    signature = function.type
    if isinstance(signature, CallableType):
        for var in signature_variables(signature):
            if var.fullname not in frame.scope:
                frame.bind_existing(var)
    return Names(frame, analyzer.cur_mod_id, scope, create=False)


def signature_variables_of(function: FuncDef) -> list[TypeVarLikeType]:
    return signature_variables(function.type) if isinstance(function.type, CallableType) else []


def signature_variables(signature: CallableType) -> list[TypeVarLikeType]:
    """The size variables a signature's jaxtyping annotations introduced."""
    found: dict[TypeVarId, TypeVarLikeType] = {}
    for t in (*signature.arg_types, signature.ret_type):
        found.update(shape_variables(t))
    return [var for var in found.values() if var.fullname.startswith(_PREFIX)]


def listed(signature: CallableType) -> CallableType:
    """The signature with its jaxtyping size variables among its type variables, to be freshened with them.

    A name only the return value has (`-> Float[Tensor, "b h s d"]` of `x: Float[Tensor, "b kv s d"]`)
    is bound by what the function returns, as jaxtyping binds it when it checks the return value:
    any size, so it is unknown there (`if n_rep == 1: return x` is no error)."""
    given: dict[TypeVarId, TypeVarLikeType] = {}
    for t in signature.arg_types:
        given.update(shape_variables(t))
    free = {var.id for var in shape_variables(signature.ret_type).values() if var.fullname.startswith(_PREFIX)} - given.keys()
    if free:
        signature = signature.copy_modified(ret_type=signature.ret_type.accept(_Forget(only=free)))
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

    def __init__(self, on_pending: Callable[[bool], None]) -> None:
        self.modules: set[str] = set()
        self.decorated: list[Decorator] = []  # listed, but mypy has not yet typed what the decorators return
        self.pending = False  # whether `sweep` has work
        self._on_pending = on_pending  # told when that changes

    def note(self, module: str) -> None:
        self.modules.add(module)
        self._set_pending(True)

    def _set_pending(self, pending: bool) -> None:
        if pending != self.pending:
            self.pending = pending
            self._on_pending(pending)

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
        self._set_pending(bool(self.decorated))

    def _list_decorated(self, decorator: Decorator) -> None:
        """The decorated function's type (`@jaxtyped(...)` keeps it), listed once mypy has it."""
        if decorator.var.type is None:
            if signature_variables_of(decorator.func):
                self.decorated.append(decorator)
        elif isinstance(decorator.var.type, CallableType):
            decorator.var.type = listed(decorator.var.type)


# -- attributes ---------------------------------------------------------------------------------------


def mentions_names(typ: Type) -> bool:
    """Whether a type holds size variables of jaxtyping's names (an attribute assigned a parameter)."""
    return any(var.fullname.startswith(_PREFIX) for var in shape_variables(typ).values())


def attribute_hook(ctx: AttributeContext, lookup: Lookup) -> Type:
    """An attribute mypy typed from a value of one call (`self.means = means` in `__init__`): its names are unknown.

    The names of one call mean nothing in another method (whose own names have the
    same identities), so such an attribute keeps its fixed sizes only.
    """
    scope = Scope(lookup)
    return normalise(ctx.default_attr_type.accept(_Forget()), scope)


class _Forget(TypeTranslator):
    """Every size variable of jaxtyping's names made unknown, or those of `only`."""

    def __init__(self, only: set[TypeVarId] | None = None) -> None:
        super().__init__()
        self.only = only

    def _forgets(self, var: TypeVarLikeType) -> bool:
        return var.fullname.startswith(_PREFIX) and (self.only is None or var.id in self.only)

    def visit_type_var(self, t: TypeVarType, /) -> Type:
        return UNKNOWN if self._forgets(t) else t

    def visit_unpack_type(self, t: UnpackType, /) -> Type:
        inner = get_proper_type(t.type)
        if isinstance(inner, TypeVarTupleType) and self._forgets(inner):
            return UnpackType(inner.tuple_fallback.copy_modified(args=[UNKNOWN]))  # `*tuple[Any, ...]`
        return super().visit_unpack_type(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t if t.is_recursive else get_proper_type(t).accept(self)
