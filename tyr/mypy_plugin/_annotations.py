"""Reading `Tensor[...]` and `Dim[...]` annotations (mypy's type-analyze hooks).

mypy's parser leaves the arguments of `Tensor[32, "B*T"]` as raw expressions (an
int, a string that is not a type); here each becomes a size type (see `_types`):
`Tensor[32, "B*T"]` is `Tensor[Literal[32], DimExpr[Literal["B*T"], B, T]]`.
Type variables, `Literal[...]`, `*Batch` / `Unpack[Batch]` and `Any` pass
through as mypy analyses them.
"""

from __future__ import annotations

from typing import NoReturn, TypeGuard

from mypy.expandtype import expand_type
from mypy.nodes import Context, TypeAlias, TypeInfo, TypeVarExpr
from mypy.plugin import AnalyzeTypeContext, Plugin
from mypy.tvar_scope import TypeVarLikeScope
from mypy.typeanal import TypeAnalyser
from mypy.typeops import get_all_type_vars
from mypy.types import (
    AnyType,
    Instance,
    LiteralType,
    RawExpressionType,
    TupleType,
    TypeAliasType,
    Type,
    TypeOfAny,
    TypeVarId,
    TypeVarLikeType,
    TypeVarTupleType,
    TypeVarType,
    UnboundType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tyr._symbolic import Expr, ExprSyntaxError, names_in_order, parse, sym
from tyr.mypy_plugin import _errors, _names
from tyr.mypy_plugin._types import UNKNOWN, Lookup, Scope, normalise, unknown_rank

_told_stubs_missing: set[str] = set()


class _BadDim(Exception):
    """A dimension that has already been reported."""


def analyze_tensor(ctx: AnalyzeTypeContext, lookup: Lookup) -> Type:
    """`Tensor`, `Tensor[()]`, `Tensor[32, B, "D//4", *Batch]` as a `torch.Tensor` instance."""
    scope = Scope(lookup)
    info = scope.info(_names.TENSOR)
    t = ctx.type
    if not info.type_vars:
        # torch's own (non-generic) Tensor: tyr's stubs are not in this build.  Say so once per module.
        module = getattr(getattr(ctx.api, "api", None), "cur_mod_id", "")
        if t.args and module not in _told_stubs_missing:
            _told_stubs_missing.add(module)
            ctx.api.fail(_errors.STUBS_MISSING, ctx.context, code=_errors.ANNOTATION)
        return Instance(info, [], line=t.line, column=t.column)
    if not t.args:
        args: list[Type] = [] if t.empty_tuple_index else [unknown_rank(scope)]
        return Instance(info, args, line=t.line, column=t.column)
    args = []
    variadics = 0
    try:
        for arg in t.args:
            dim = _analyze_dim(arg, ctx, scope, "Tensor")
            if isinstance(dim, UnpackType):
                variadics += 1
            args.append(dim)
    except _BadDim:
        return AnyType(TypeOfAny.from_error)
    if variadics > 1:
        ctx.api.fail(_errors.TWO_VARIADICS.format(type="Tensor"), ctx.context, code=_errors.ANNOTATION)
        return AnyType(TypeOfAny.from_error)
    return Instance(info, args, line=t.line, column=t.column)


def analyze_sized_alias(ctx: AnalyzeTypeContext, fullname: str, lookup: Lookup, plugin: Plugin) -> Type:
    """`Hidden[32, T]` for `Hidden = Tensor[B, T, 768]`: the alias applied to sizes read as in `Tensor[...]`.

    (mypy would read each argument of an alias on its own, where `32` is not a type.)  Also any
    alias with a parameter that only a size string names (`alias_parameters`); the arguments of
    an alias of something else than a tensor (`tuple[Tensor[B, "D//2"], ...]`) may be types too.
    """
    node = plugin.lookup_fully_qualified(fullname)
    alias = node.node if node is not None else None
    assert isinstance(alias, TypeAlias)
    t = ctx.type
    scope = Scope(lookup)
    params = alias_parameters(alias)
    if not t.args:  # bare, as mypy reads a generic alias: every size unknown
        unknown = AnyType(TypeOfAny.from_omitted_generics)
        return normalise(expand_type(alias.target, {var.id: unknown for var in params}), scope)
    if len(t.args) != len(params):
        ctx.api.fail(
            f'Type alias "{alias.name}" expects {len(params)} sizes, {len(t.args)} given',
            ctx.context,
            code=_errors.ANNOTATION,
        )
        return AnyType(TypeOfAny.from_error)
    try:
        if is_tensor_alias(alias):
            args = [_analyze_dim(arg, ctx, scope, alias.name) for arg in t.args]
        else:
            args = [_analyze_raw(arg, ctx, scope, alias.name) if _is_size(arg) else _analyze(arg, ctx) for arg in t.args]
    except _BadDim:
        return AnyType(TypeOfAny.from_error)
    if any(isinstance(a, UnpackType) for a in args):
        ctx.api.fail(_errors.DIM_ARGS.replace('"Dim"', f'"{alias.name}"'), ctx.context, code=_errors.ANNOTATION)
        return AnyType(TypeOfAny.from_error)
    applied = expand_type(alias.target, {var.id: arg for var, arg in zip(params, args)})
    return normalise(applied, scope)


def analyze_sized_class(ctx: AnalyzeTypeContext, info: TypeInfo, lookup: Lookup) -> Type:
    """`nn.Linear[784, 256]`, `Block[768]`, `Block["2*D"]`: a generic class's sizes written as in `Tensor[...]`.

    Only an int or a size string (which mypy leaves as a raw expression, not a type) is read
    here; the class and its other arguments go through mypy's own analysis, as without tyr.
    """
    api = ctx.api
    assert isinstance(api, TypeAnalyser)
    t = ctx.type
    scope = Scope(lookup)
    try:
        args = [_analyze_raw(arg, ctx, scope, info.name) if _is_size(arg) else arg for arg in t.args]
    except _BadDim:
        return AnyType(TypeOfAny.from_error)
    return api.analyze_type_with_type_info(info, args, t, t.empty_tuple_index)


def _is_size(arg: Type) -> TypeGuard[RawExpressionType]:
    """An int or string that mypy could not read as a type (`768`, `"4*D"`)."""
    return isinstance(arg, RawExpressionType) and (
        arg.base_type_name == _names.INT and type(arg.literal_value) is int
        or arg.base_type_name == _names.STR and isinstance(arg.literal_value, str)
    )


def analyze_dim(ctx: AnalyzeTypeContext, lookup: Lookup) -> Type:
    """`Dim[768]` is `Literal[768]`; `Dim[D]`, `Dim["4*D"]` stay `Dim[...]`; a bare `Dim` is `int`."""
    scope = Scope(lookup)
    t = ctx.type
    if not t.args:
        return scope.instance(_names.INT)
    if len(t.args) != 1:
        ctx.api.fail(_errors.DIM_ARGS, ctx.context, code=_errors.ANNOTATION)
        return AnyType(TypeOfAny.from_error)
    try:
        dim = _analyze_dim(t.args[0], ctx, scope, "Dim")
    except _BadDim:
        return AnyType(TypeOfAny.from_error)
    proper = get_proper_type(dim)
    if isinstance(proper, UnpackType):
        ctx.api.fail(_errors.DIM_ARGS, ctx.context, code=_errors.ANNOTATION)
        return AnyType(TypeOfAny.from_error)
    if isinstance(proper, LiteralType):
        return proper
    if isinstance(proper, AnyType):
        return scope.instance(_names.INT)
    return scope.instance(_names.DIM, [dim])


def _analyze(arg: Type, ctx: AnalyzeTypeContext) -> Type:
    api = ctx.api
    if isinstance(api, TypeAnalyser):
        return api.anal_type(arg, nested=True, allow_unpack=True)
    return api.analyze_type(arg)


def _analyze_dim(arg: Type, ctx: AnalyzeTypeContext, scope: Scope, type_name: str) -> Type:
    if isinstance(arg, RawExpressionType):
        return _analyze_raw(arg, ctx, scope, type_name)
    _bind_bare_as_in_signature(arg, ctx)
    analyzed = _analyze(arg, ctx)
    proper = get_proper_type(analyzed)
    if isinstance(analyzed, UnpackType):
        inner = get_proper_type(analyzed.type)
        if isinstance(inner, (TypeVarTupleType, TupleType)) or (
            isinstance(inner, Instance) and inner.type.fullname == _names.TUPLE
        ):
            return analyzed
    elif isinstance(proper, TypeVarType):
        return analyzed
    elif isinstance(proper, UnboundType) and getattr(ctx.api, "allow_unbound_tvars", False):
        return analyzed  # a type variable of an alias being defined (`State = tuple[Tensor[B, D], ...]`): mypy binds it
    elif isinstance(proper, LiteralType):
        if type(proper.value) is int and proper.fallback.type.fullname == _names.INT:
            if proper.value < 0:
                _fail(ctx, _errors.NEGATIVE_DIM.format(value=proper.value, type=type_name))
            return proper
    elif isinstance(proper, AnyType):
        return analyzed
    elif isinstance(proper, Instance):
        if proper.type.fullname == _names.INT:
            return UNKNOWN
        if proper.type.fullname == _names.DIM_EXPR:
            return analyzed
    _fail(ctx, _errors.BAD_DIM.format(arg=_describe(arg), type=type_name))


def _analyze_raw(arg: RawExpressionType, ctx: AnalyzeTypeContext, scope: Scope, type_name: str) -> Type:
    value = arg.literal_value
    if arg.base_type_name == _names.INT and type(value) is int:
        if value < 0:
            _fail(ctx, _errors.NEGATIVE_DIM.format(value=value, type=type_name))
        return scope.int_literal(value)
    if arg.base_type_name == _names.STR and isinstance(value, str):
        return scope.size_type(_parse_dim_string(value, ctx, scope, type_name))
    _fail(ctx, _errors.BAD_DIM.format(arg=_describe(arg), type=type_name))


def _parse_dim_string(text: str, ctx: AnalyzeTypeContext, scope: Scope, type_name: str) -> Expr:
    try:
        expr = parse(text)
    except (ExprSyntaxError, ZeroDivisionError) as err:
        _fail(ctx, _errors.BAD_DIM_STRING.format(text=text, type=type_name, why=err))
    renames: dict[str, Expr] = {}
    for name in sorted(expr.symbols):
        if not _names_a_type_variable(name, ctx):
            _fail(ctx, _errors.DIM_NOT_TYPEVAR.format(name=name, text=text))
        _bind_unbound(name, ctx)
        resolved = get_proper_type(_analyze(UnboundType(name, line=ctx.type.line, column=ctx.type.column), ctx))
        if not isinstance(resolved, TypeVarType):
            raise _BadDim  # mypy has reported the name (undefined, or a variable out of scope)
        scoped = scope.name_of(resolved)
        if scoped != name:
            renames[name] = sym(scoped)
    return expr.substitute(renames) if renames else expr


def _names_a_type_variable(name: str, ctx: AnalyzeTypeContext) -> bool:
    """Whether `name` is a TypeVar (True also when it is undefined: mypy says so itself)."""
    api = ctx.api
    if not isinstance(api, TypeAnalyser):
        return True
    symbol = api.lookup_qualified(name, ctx.context, suppress_errors=True)
    return symbol is None or isinstance(symbol.node, TypeVarExpr)


def _bind_unbound(name: str, ctx: AnalyzeTypeContext) -> None:
    """Bind a TypeVar that a function's signature, or an alias, mentions only inside size strings.

    mypy binds a function's type variables, and collects an alias's parameters, by finding
    their names before analysing it, and cannot see inside `"2*D"`; so when `D` appears nowhere
    else, tyr binds it here: to the function, as mypy would have, or as a parameter of the alias
    after the bare ones (`Half = Tensor[B, "D//2"]` takes `B, D`; `alias_parameters` finds it in
    the target).  An alias that declares its parameters (`type Half[B, D] = ...`,
    `TypeAliasType(..., type_params=...)`) is left to mypy, as are module level and class bodies,
    where unbound type variables stay errors.
    """
    api = ctx.api
    if not isinstance(api, TypeAnalyser):
        return
    scope = api.tvar_scope
    in_alias = scope.is_class_scope and api.defining_alias and api.alias_type_params_names is None
    if not (in_alias or not scope.is_class_scope and scope.namespace):
        return
    symbol = api.lookup_qualified(name, ctx.context, suppress_errors=True)
    if symbol is None or not isinstance(symbol.node, TypeVarExpr) or scope.get_binding(symbol) is not None:
        return
    if in_alias:
        api.allowed_alias_tvars.append(scope.bind_new(name, symbol.node, api.fail_func, ctx.context))
        return
    if not _bind_as_in_signature(scope, symbol.node):
        _BOUND_IN_SIGNATURES[(scope.namespace, symbol.node.fullname)] = scope.bind_new(
            name, symbol.node, api.fail_func, ctx.context
        )


_BOUND_IN_SIGNATURES: dict[tuple[str, str], TypeVarLikeType] = {}
"""The type variables `_bind_unbound` bound in a function, by its namespace and their full names."""


def _bind_as_in_signature(scope: TypeVarLikeScope, variable: TypeVarExpr) -> bool:
    """Bind `variable` in a function's body as its signature bound it, where only the signature's size
    strings name it (mypy binds again, for the body, only the variables it found in the signature):
    `h: Tensor["2*D"]` or `h: Tensor[B, D]` in the body is then the signature's `D`.  Whether it was."""
    bound = _BOUND_IN_SIGNATURES.get((scope.namespace, variable.fullname))
    if bound is not None:
        scope.scope[variable.fullname] = bound
    return bound is not None


def _bind_bare_as_in_signature(arg: Type, ctx: AnalyzeTypeContext) -> None:
    """`_bind_as_in_signature` for a bare type variable (`D` in `h: Tensor[B, D]`), before mypy reads it."""
    api = ctx.api
    if isinstance(arg, UnboundType) and not arg.args and isinstance(api, TypeAnalyser) and api.tvar_scope.namespace:
        symbol = api.lookup_qualified(arg.name, ctx.context, suppress_errors=True)
        if symbol is not None and isinstance(symbol.node, TypeVarExpr) and api.tvar_scope.get_binding(symbol) is None:
            _bind_as_in_signature(api.tvar_scope, symbol.node)


def holds_a_tensor(t: Type, seen: frozenset[str] = frozenset()) -> bool:
    """A tensor, or a tuple, union or generic instance with one inside (`Optional[Tensor[B, T]]`).
    A recursive alias (`Nested = list[int | "Nested"]`) is looked into once."""
    if isinstance(t, TypeAliasType) and t.alias is not None:
        if t.alias.fullname in seen:
            return False
        seen = seen | {t.alias.fullname}
    p = get_proper_type(t)
    if isinstance(p, Instance):
        return p.type.fullname == _names.TENSOR or any(holds_a_tensor(a, seen) for a in p.args)
    if isinstance(p, (TupleType, UnionType)):
        return any(holds_a_tensor(item, seen) for item in p.items)
    return False


def is_tensor_alias(alias: TypeAlias) -> bool:
    target = get_proper_type(alias.target)
    return isinstance(target, Instance) and target.type.fullname == _names.TENSOR


def alias_parameters(alias: TypeAlias) -> list[TypeVarLikeType]:
    """An alias's parameters.  With none that only a size string names, mypy's.  Otherwise as at
    runtime (`tyr._annotations.tensor_parameters`): each `Tensor[...]`'s bare type variables, then
    those its size strings name, in order of appearance, part after part of the alias."""
    found = _in_order(alias.target)
    ids = {p.id for p in alias.alias_tvars}
    if all(var.id in ids for var in found):
        return list(alias.alias_tvars)
    unique: dict[TypeVarId, TypeVarLikeType] = {}
    for var in [*found, *alias.alias_tvars]:
        unique.setdefault(var.id, var)
    return list(unique.values())


def _in_order(t: Type) -> list[TypeVarLikeType]:
    p = get_proper_type(t)
    if isinstance(p, Instance) and p.type.fullname == _names.TENSOR:
        args = [get_proper_type(a) for a in p.args]
        bare = [a for a in args if isinstance(a, TypeVarLikeType)]
        return bare + [var for a in args if not isinstance(a, TypeVarLikeType) for var in _in_order(a)]
    if isinstance(p, Instance) and p.type.fullname == _names.DIM_EXPR and p.args:
        template = get_proper_type(p.args[0])
        if isinstance(template, LiteralType) and isinstance(template.value, str):
            names = names_in_order(template.value)
            by_name = dict(zip(sorted(names), p.args[1:]))  # (`_types.size_type` orders them so)
            return [var for name in names if name in by_name for var in _in_order(by_name[name])]
    if isinstance(p, (Instance, TupleType, UnionType)):
        parts = p.args if isinstance(p, Instance) else p.items
        return [var for part in parts for var in _in_order(part)]
    return get_all_type_vars(p)


def _describe(arg: Type) -> str:
    if isinstance(arg, RawExpressionType):
        return repr(arg.literal_value) if arg.literal_value is not None else "expression"
    if isinstance(arg, UnboundType):
        return f'"{arg.name}"'
    return f'"{arg}"'


def _fail(ctx: AnalyzeTypeContext, message: str, context: Context | None = None) -> NoReturn:
    ctx.api.fail(message, context or ctx.context, code=_errors.ANNOTATION)
    raise _BadDim

