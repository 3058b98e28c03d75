"""Shapes and sizes as mypy types, and back.

A size is a `tyr._symbolic.Expr` (None when unknown); as a mypy type it is

* `Literal[768]` for a constant (an `int` instance whose last known value is 768
  is read the same way, so the literal expression `768` is a size too),
* a `TypeVarType` for a symbol (`B`),
* `DimExpr[Literal["4*D"], D]` for anything else: the normal form's text, then the
  type variables it mentions sorted by name,
* anything else (`Any`, `int`) for an unknown size.

`Dim[X]` (an int whose value is the size X) reads as X.  A shape is a tuple of
sizes with at most one `Variadic` (a TypeVarTuple), or None when unknown; as a
type it is the arguments of `torch.Tensor`.  The bare `Tensor` is
`Tensor[*tuple[Any, ...]]`.

Type variables become symbols by name.  One `Scope` is used per hook call; it
remembers which type variable each name stands for, so results convert back to
the same variables.  (Two different variables with one name, which mypy allows in
nested scopes, get distinct names: `B` and `B_2`.)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from mypy.maptype import map_instance_to_supertype
from mypy.nodes import TypeInfo
from mypy.type_visitor import TypeTranslator
from mypy.types import (
    AnyType,
    CallableType,
    Instance,
    LiteralType,
    NoneType,
    ProperType,
    TupleType,
    Type,
    TypeAliasType,
    TypeOfAny,
    TypeType,
    TypeVarId,
    TypeVarLikeType,
    TypeVarTupleType,
    TypeVarType,
    UnionType,
    UnpackType,
    get_proper_type,
)

from tyr._symbolic import Expr, ExprSyntaxError, const, division_facts, parse, sym
from tyr.mypy_plugin import _names
from tyr.shape_rules import MaybeShape, Size, Variadic

Lookup = Callable[[str], TypeInfo | None]
"""Finds a class by full name in the current build (None if it is not loaded)."""

UNKNOWN = AnyType(TypeOfAny.special_form)


@lru_cache(maxsize=4096)
def parse_template(text: str) -> Expr | None:
    """The expression a `DimExpr` template stands for (None if it is not well formed)."""
    try:
        return parse(text)
    except (ExprSyntaxError, ZeroDivisionError):
        return None


@lru_cache(maxsize=4096)
def template_facts(text: str) -> tuple[tuple[str, Expr], ...]:
    """The divisibility facts a template's normal form assumes (SHAPES.md §6): `D//16` (which `-(-d // 16)`,
    a ceiling, also normalises to) takes `D` a multiple of 16."""
    expr = parse_template(text)
    return () if expr is None else tuple(division_facts(expr))


def _breaks_a_fact(text: str, bindings: Mapping[str, Expr]) -> bool:
    """Whether constants bound to a template's symbols break a fact its normal form assumed: at `D = 24` the
    ceiling `-(-D // 16)` is 2 where `D//16` is 1, so the template's value there is not the code's."""
    for name, divisor in template_facts(text):
        value, by = bindings[name].const_value, divisor.substitute(bindings).const_value
        if value is not None and by is not None and by > 0 and value % by:
            return True
    return False


class Scope:
    """The type variables one conversion has seen, by the names its expressions use."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup
        self.by_name: dict[str, TypeVarLikeType] = {}
        self.name_by_id: dict[TypeVarId, str] = {}
        # what a test guarding the call says some symbols are (`_guards`): read as that
        self.narrowed: dict[str, Expr] = {}

    # -- names --------------------------------------------------------------------------------

    def name_of(self, var: TypeVarLikeType) -> str:
        """The symbol name for a type variable, registering it on first sight."""
        name = self.name_by_id.get(var.id)
        if name is not None:
            return name
        name = var.name
        suffix = 1
        while name in self.by_name:
            suffix += 1
            name = f"{var.name}_{suffix}"
        self.by_name[name] = var
        self.name_by_id[var.id] = name
        return name

    def display(self, name: str) -> str:
        """How messages show a symbol: its type variable's own name."""
        var = self.by_name.get(name)
        return var.name if var is not None else name

    def render(self, message: str) -> str:
        """A message with each symbol this scope renamed (`H_2`) shown by its user's name (`H`); where the
        message names two variables of one name, each by where it is bound, as mypy writes them
        (`G@__init__`, `G@forward`)."""
        if all(name == var.name for name, var in self.by_name.items()):
            return message
        pattern = re.compile(r"\b(" + "|".join(map(re.escape, sorted(self.by_name, key=len, reverse=True))) + r")\b")
        named: dict[str, set[str]] = {}
        for found in pattern.findall(message):
            named.setdefault(self.by_name[found].name, set()).add(found)

        def shown(match: re.Match[str]) -> str:
            var = self.by_name[match.group(1)]
            return _where_bound(var) if len(named[var.name]) > 1 else var.name

        return pattern.sub(shown, message)

    # -- classes ------------------------------------------------------------------------------

    def info(self, fullname: str) -> TypeInfo:
        info = self.lookup(fullname)
        if info is None and fullname.startswith("tyr."):
            # tyr's stubs load `tyr._static`, unless mypy was told not to follow it: sizes are unknown
            raise NotKnown(f"{fullname} is not loaded")
        assert info is not None, f"tyr: {fullname} is not loaded"
        return info

    def instance(self, fullname: str, args: Sequence[Type] = ()) -> Instance:
        return Instance(self.info(fullname), list(args))

    def int_literal(self, value: int) -> LiteralType:
        return LiteralType(value, self.instance(_names.INT))

    def int_value(self, value: int) -> Instance:
        """The type of the int expression `value` (an `int` whose last known value is `value`)."""
        return self.instance(_names.INT).copy_modified(last_known_value=self.int_literal(value))

    # -- sizes --------------------------------------------------------------------------------

    def size_of(self, typ: Type) -> Size:
        """The size a type stands for as a dim or a `Dim` value; None when unknown."""
        t = get_proper_type(typ)
        if isinstance(t, LiteralType):
            value = t.value
            return const(value) if type(value) is int and t.fallback.type.fullname == _names.INT else None
        if isinstance(t, TypeVarType):
            name = self.name_of(t)
            return self.narrowed.get(name) or sym(name)
        if isinstance(t, Instance):
            fullname = t.type.fullname
            if fullname == _names.INT:
                known = t.last_known_value
                return self.size_of(known) if known is not None else None
            if fullname == _names.DIM_EXPR:
                return self._dim_expr(t)
            if fullname == _names.DIM and len(t.args) == 1:
                return self.size_of(t.args[0])
        return None

    def _dim_expr(self, t: Instance) -> Size:
        if not t.args:
            return None
        template = get_proper_type(t.args[0])
        if not (isinstance(template, LiteralType) and isinstance(template.value, str)):
            return None
        expr = parse_template(template.value)
        if expr is None:
            return None
        names = sorted(expr.symbols)
        values = t.args[1:]
        if len(names) != len(values):
            return None
        bindings: dict[str, Expr] = {}
        for name, value in zip(names, values):
            size = self.size_of(value)
            if size is None:
                return None
            bindings[name] = size
        if expr.has_division and _breaks_a_fact(template.value, bindings):
            return None
        return expr.substitute(bindings)

    def size_type(self, size: Size | int) -> Type:
        """The dim type for a size (an argument of `Tensor[...]`)."""
        if size is None:
            return UNKNOWN
        if isinstance(size, int):
            size = const(size)
        value = size.const_value
        if value is not None:
            return self.int_literal(value)
        name = size.symbol_name
        if name is not None:
            return self.by_name.get(name, UNKNOWN)
        if any(name not in self.by_name for name in size.symbols):
            return UNKNOWN
        local = self._template_names(size.symbols)
        renames = {name: sym(text) for name, text in local.items() if name != text}
        text = str(size.substitute(renames) if renames else size)
        template = LiteralType(text, self.instance(_names.STR))
        ordered = sorted(local, key=local.__getitem__)
        return self.instance(_names.DIM_EXPR, [template, *(self.by_name[name] for name in ordered)])

    def _template_names(self, symbols: frozenset[str]) -> dict[str, str]:
        """How a `DimExpr` template names each symbol: by its type variable's own name.

        The template must not depend on which other variables this scope happened to
        see (a scope that met two `H`s calls the second `H_2`), or two types for one
        size would differ for mypy (SHAPES.md §6: type variables by identity).  Only
        variables sharing a name within this one size get suffixes, by their ids.
        """
        by_var_name: dict[str, list[str]] = {}
        for name in symbols:
            by_var_name.setdefault(self.by_name[name].name, []).append(name)
        local: dict[str, str] = {}
        taken = set(by_var_name)
        for var_name, names in by_var_name.items():
            names.sort(key=lambda n: _id_key(self.by_name[n].id))
            local[names[0]] = var_name
            suffix = 1
            for name in names[1:]:
                suffix += 1
                while f"{var_name}_{suffix}" in taken:
                    suffix += 1
                taken.add(f"{var_name}_{suffix}")
                local[name] = f"{var_name}_{suffix}"
        return local

    def dim_value_type(self, size: Size | int) -> Type:
        """The type of an int whose value is the size: `Literal[768]`, `Dim[D]`, or `int` if unknown.

        (A `Literal`, not an `int` whose last known value it is: mypy keeps no last known value
        for a name, and `n = x.size(1)` would forget the size.)"""
        if size is None:
            return self.instance(_names.INT)
        if isinstance(size, int):
            size = const(size)
        value = size.const_value
        if value is not None:
            return self.int_literal(value)
        arg = self.size_type(size)
        if isinstance(arg, AnyType) or self.lookup(_names.DIM) is None:
            # (`Dim` is tyr's: a build where nothing imports tyr, whose torch tensors are written
            # `torch.Tensor[B, 4]`, has sizes but no `Dim` to give them as)
            return self.instance(_names.INT)
        return self.instance(_names.DIM, [arg])

    # -- shapes -------------------------------------------------------------------------------

    def tensor_shape(self, typ: Type) -> MaybeShape:
        """The shape of a tensor type (None when unknown); raises `NotATensor` for other types.

        A union of tensors (a name bound to different shapes on different paths) has
        the shape they share: the sizes all of them agree on, the others unknown.
        """
        t = get_proper_type(typ)
        if isinstance(t, UnionType):
            return join_shapes([self.tensor_shape(item) for item in t.items])
        if not isinstance(t, Instance):
            raise NotATensor
        if t.type.fullname != _names.TENSOR:
            if not t.type.has_base(_names.TENSOR):
                raise NotATensor
            t = as_tensor(t)  # a subclass: `Parameter[1, 1, D]` has its tensor's shape
        if not t.type.has_type_var_tuple_type:
            return None  # torch's own Tensor, without tyr's stubs: no shapes at all
        return self.shape_of_args(t.args)

    def shape_of_args(self, args: Sequence[Type]) -> MaybeShape:
        shape: list[Size | Variadic] = []
        for arg in args:
            if isinstance(arg, UnpackType):
                inner = get_proper_type(arg.type)
                if isinstance(inner, TypeVarTupleType):
                    shape.append(Variadic(self.name_of(inner)))
                elif isinstance(inner, TupleType):
                    nested = self.shape_of_args(inner.items)
                    if nested is None:
                        return None
                    shape.extend(nested)
                else:
                    return None  # *tuple[Any, ...]: the number of dims is unknown
            else:
                shape.append(self.size_of(arg))
        if sum(isinstance(item, Variadic) for item in shape) > 1:
            return None
        return tuple(shape)

    def tensor_type(self, shape: MaybeShape) -> Instance:
        """`torch.Tensor[...]` with the given shape; the bare `Tensor` when the shape is unknown."""
        info = self.info(_names.TENSOR)
        if not info.has_type_var_tuple_type:
            return Instance(info, [])  # torch's own Tensor, without tyr's stubs: it has no shape
        return Instance(info, self.shape_args(shape))

    def shape_args(self, shape: MaybeShape) -> list[Type]:
        if shape is None:
            return [unknown_rank(self)]
        args: list[Type] = []
        for item in shape:
            if isinstance(item, Variadic):
                var = self.by_name.get(item.name)
                if not isinstance(var, TypeVarTupleType):
                    return [unknown_rank(self)]
                args.append(UnpackType(var))
            else:
                args.append(self.size_type(item))
        return args


def _where_bound(var: TypeVarLikeType) -> str:
    """`G@__init__`: a type variable by its name and the function or class that binds it."""
    namespace = var.id.namespace.rpartition(".")[2]
    return f"{var.name}@{namespace}" if namespace else var.name


def _id_key(var_id: TypeVarId) -> tuple[str, int, int]:
    return (var_id.namespace, var_id.raw_id, var_id.meta_level)


def join_shapes(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """What shapes of several possible values have in common: equal sizes, or unknown."""
    first = shapes[0] if shapes else None
    if first is None or any(s is None or len(s) != len(first) for s in shapes):
        return None
    out: list[Size | Variadic] = []
    for items in zip(*shapes):
        head = items[0]
        if isinstance(head, Variadic):
            if any(item != head for item in items):
                return None
            out.append(head)
        elif any(isinstance(item, Variadic) for item in items):
            return None
        else:
            out.append(head if all(item == head for item in items) else None)
    return tuple(out)


def unless_none(t: Type | None) -> Type | None:
    """The one other member of a union with `None`; None for any other type."""
    p = get_proper_type(t) if t is not None else None
    if not isinstance(p, UnionType):
        return None
    others = [m for m in p.items if not isinstance(get_proper_type(m), NoneType)]
    return others[0] if len(others) == 1 and len(others) < len(p.items) else None


class NotKnown(Exception):
    """An argument whose value matters but cannot be read statically: the result is unknown."""


class NotATensor(Exception):
    """Raised by `Scope.tensor_shape` for a type that is not a tensor."""


def unknown_rank(scope: Scope) -> UnpackType:
    """`*tuple[Any, ...]`: the type arguments of a tensor whose shape is unknown."""
    return UnpackType(scope.instance(_names.TUPLE, [UNKNOWN]))


def is_tensor_instance(t: ProperType) -> bool:
    return isinstance(t, Instance) and (t.type.fullname == _names.TENSOR or t.type.has_base(_names.TENSOR))


def shape_class(info: TypeInfo) -> bool:
    """Whether a class's type arguments are a shape: tyr's generic `torch.Tensor`, or a subclass
    generic in exactly that shape (`nn.Parameter`, `nn.Buffer` in tyr's stubs)."""
    if not info.has_type_var_tuple_type:
        return False
    return info.fullname == _names.TENSOR or (len(info.type_vars) == 1 and info.has_base(_names.TENSOR))


def as_tensor(t: Instance) -> Instance:
    """A tensor subclass's instance as the `torch.Tensor[...]` it is (`Parameter[1, D]` as `Tensor[1, D]`)."""
    if t.type.fullname == _names.TENSOR:
        return t
    for base in t.type.mro:
        if base.fullname == _names.TENSOR:
            return map_instance_to_supertype(t, base)
    return t


def is_shaped(t: ProperType) -> bool:
    """A `torch.Tensor[...]` (or a generic subclass's instance) whose shape says something (not the bare `Tensor`)."""
    if not (isinstance(t, Instance) and shape_class(t.type)):
        return False
    if len(t.args) == 1 and isinstance(t.args[0], UnpackType):
        inner = get_proper_type(t.args[0].type)
        return not (isinstance(inner, Instance) and inner.type.fullname == _names.TUPLE)
    return True


# -- whole types ----------------------------------------------------------------------------------


class _Normaliser(TypeTranslator):
    """Puts every size inside a type into normal form (after mypy or tyr substituted type variables)."""

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def visit_instance(self, t: Instance, /) -> Type:
        fullname = t.type.fullname
        if shape_class(t.type):
            shape = self.scope.shape_of_args(t.args)
            return t.copy_modified(args=self.scope.shape_args(shape))
        if fullname == _names.DIM_EXPR:
            return self.scope.size_type(self.scope.size_of(t))
        if fullname == _names.DIM and len(t.args) == 1:
            return self.scope.dim_value_type(self.scope.size_of(t.args[0]))
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        if t.is_recursive:
            return t
        return get_proper_type(t).accept(self)


def normalise(typ: Type, scope: Scope) -> Type:
    """`typ` with every tensor shape, `Dim` and `DimExpr` in normal form."""
    return typ.accept(_Normaliser(scope))


class _Eraser(TypeTranslator):
    """Forgets shapes: every tensor becomes the bare `Tensor`, every `Dim[...]` an `int`."""

    def __init__(self, scope: Scope) -> None:
        super().__init__()
        self.scope = scope

    def visit_instance(self, t: Instance, /) -> Type:
        fullname = t.type.fullname
        if shape_class(t.type):
            return t.copy_modified(args=[unknown_rank(self.scope)])
        if fullname == _names.DIM:
            return self.scope.instance(_names.INT)
        return super().visit_instance(t)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        if t.is_recursive:
            return t
        return get_proper_type(t).accept(self)


def is_int_literal(typ: Type) -> bool:
    """`Literal[4]`: a size as tyr gives it for an int value (`x.size(1)`)."""
    t = get_proper_type(typ)
    return isinstance(t, LiteralType) and type(t.value) is int


def erase_shapes(typ: Type, scope: Scope) -> Type:
    return typ.accept(_Eraser(scope))


def mentions_shapes(typ: Type, depth: int = 0) -> bool:
    """Whether a type holds a shaped tensor or a `Dim` anywhere (cheap; most types do not)."""
    if depth > 8:
        return False
    t = get_proper_type(typ)
    if isinstance(t, Instance):
        fullname = t.type.fullname
        if shape_class(t.type):
            return is_shaped(t)
        if fullname in (_names.DIM, _names.DIM_EXPR):
            return True
        return any(mentions_shapes(arg, depth + 1) for arg in t.args)
    if isinstance(t, UnionType):
        return any(mentions_shapes(item, depth + 1) for item in t.items)
    if isinstance(t, TupleType):
        return any(mentions_shapes(item, depth + 1) for item in t.items)
    if isinstance(t, CallableType):
        return any(mentions_shapes(a, depth + 1) for a in t.arg_types) or mentions_shapes(t.ret_type, depth + 1)
    if isinstance(t, TypeType):
        return mentions_shapes(t.item, depth + 1)
    return False


def holds_empty_tensor(typ: Type, depth: int = 0) -> bool:
    """Whether a type holds a tensor with a dim of size 0 (`torch.tensor([])`, `torch.empty(0)`): what a
    class stores as a placeholder for a tensor that code elsewhere puts in its place (a cache an
    inference engine binds, a buffer `load_state_dict` fills)."""
    if depth > 8:
        return False
    t = get_proper_type(typ)
    if isinstance(t, Instance):
        if shape_class(t.type):
            return any(_is_zero(arg) for arg in t.args)
        return any(holds_empty_tensor(arg, depth + 1) for arg in t.args)
    if isinstance(t, (UnionType, TupleType)):
        return any(holds_empty_tensor(item, depth + 1) for item in t.items)
    return False


def _is_zero(arg: Type) -> bool:
    p = get_proper_type(arg)
    return isinstance(p, LiteralType) and p.value == 0


def shape_variables(typ: Type) -> dict[TypeVarId, TypeVarLikeType]:
    """The type variables a type uses as sizes (in `Tensor[...]`, `Dim[...]` and `DimExpr[...]`), by id."""
    found: dict[TypeVarId, TypeVarLikeType] = {}
    _collect_shape_variables(typ, found, in_shape=False, depth=0)
    return found


def _collect_shape_variables(typ: Type, found: dict[TypeVarId, TypeVarLikeType], in_shape: bool, depth: int) -> None:
    if depth > 12:
        return
    if isinstance(typ, UnpackType):
        _collect_shape_variables(typ.type, found, in_shape, depth + 1)
        return
    t = get_proper_type(typ)
    if isinstance(t, (TypeVarType, TypeVarTupleType)):
        if in_shape:
            found[t.id] = t
    elif isinstance(t, Instance):
        inner = in_shape or shape_class(t.type) or t.type.fullname in (_names.DIM, _names.DIM_EXPR)
        for arg in t.args:
            _collect_shape_variables(arg, found, inner, depth + 1)
    elif isinstance(t, (UnionType, TupleType)):
        for item in t.items:
            _collect_shape_variables(item, found, in_shape, depth + 1)
    elif isinstance(t, CallableType):
        for arg in t.arg_types:
            _collect_shape_variables(arg, found, in_shape, depth + 1)
        _collect_shape_variables(t.ret_type, found, in_shape, depth + 1)
    elif isinstance(t, TypeType):
        _collect_shape_variables(t.item, found, in_shape, depth + 1)
