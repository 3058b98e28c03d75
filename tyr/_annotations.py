"""The runtime meaning of `Tensor[...]`, `Dim[...]` and the dtype markers.

At runtime `Tensor[B, 768]` is `Annotated[torch.Tensor, ShapeSpec(...)]`: values
stay plain `torch.Tensor`s, beartype reads the annotation as `torch.Tensor`, and
`tyr.checked` reads the `ShapeSpec`.  mypy sees these names through
`tyr._static` instead (see `tyr/__init__.py`).
"""

from __future__ import annotations

import functools
import sys
import typing
from dataclasses import dataclass
from typing import Annotated, Any, Literal, TypeVar, TypeVarTuple, Union, Unpack, get_args, get_origin

import torch
import typing_extensions

from tyr._errors import AnnotationError
from tyr._symbolic import Expr, ExprSyntaxError, const, names_in_order, parse, sym


# -- dimensions -------------------------------------------------------------------------


@dataclass(frozen=True)
class Fixed:
    """A literal size: `Tensor[32, ...]`."""

    size: int
    broadcast: bool = False  # jaxtyping's `#3`: a size of 1 is accepted too

    def __str__(self) -> str:
        return f"#{self.size}" if self.broadcast else str(self.size)


@dataclass(frozen=True)
class Named:
    """A size bound per call (or per instance): a TypeVar, or a bare name in a string."""

    name: str
    broadcast: bool = False  # jaxtyping's `#n`: a size of 1 is accepted and binds nothing

    def __str__(self) -> str:
        return f"#{self.name}" if self.broadcast else self.name


@dataclass(frozen=True)
class Computed:
    """A size computed from other dims: `"D//4"`, `"B*T"`, `"N+M"`."""

    expr: Expr
    text: str

    def __str__(self) -> str:
        return f'"{self.text}"'


@dataclass(frozen=True)
class Variadic:
    """Any number of dims bound together per call: `*Batch` for a TypeVarTuple `Batch`.

    From jaxtyping also `...` (`name` None: bound to nothing) and `*#batch`
    (`broadcast`: each binding broadcasts with the earlier ones).
    """

    name: str | None
    broadcast: bool = False

    def __str__(self) -> str:
        if self.name is None:
            return "..."
        return f"*#{self.name}" if self.broadcast else f"*{self.name}"


@dataclass(frozen=True)
class Wildcard:
    """`Any` in a shape: one dim of any size, bound to nothing."""

    def __str__(self) -> str:
        return "Any"


@dataclass(frozen=True)
class Evaluated:
    """A jaxtyping dim that is a Python expression over the sizes bound so far (`"n+1"`, `"min(a,b)"`).

    It is evaluated as jaxtyping evaluates it (Python's own arithmetic, `{arg}` replaced
    by an argument's value) and never binds a size.
    """

    text: str
    broadcast: bool = False

    def __str__(self) -> str:
        return f'"#{self.text}"' if self.broadcast else f'"{self.text}"'


DimSpec = Fixed | Named | Computed | Variadic | Wildcard | Evaluated


@dataclass(frozen=True)
class ShapeSpec:
    """The dims of one `Tensor[...]` annotation, in order."""

    dims: tuple[DimSpec, ...]

    @property
    def variadic_index(self) -> int | None:
        for i, dim in enumerate(self.dims):
            if isinstance(dim, Variadic):
                return i
        return None

    def __str__(self) -> str:
        return "Tensor[()]" if not self.dims else f"Tensor[{', '.join(map(str, self.dims))}]"


@dataclass(frozen=True)
class DimMarker:
    """The metadata of `Dim[N]`: an int whose value is the size `N`."""

    dim: Fixed | Named | Computed

    def __str__(self) -> str:
        return f"Dim[{self.dim}]"


# `typing_extensions.Unpack` (what most code imports) is a form of its own before Python 3.12.
_UNPACK = (Unpack, typing_extensions.Unpack)
_TYPE_VAR_TUPLES = (TypeVarTuple, typing_extensions.TypeVarTuple)


def read_dim(item: object, where: str) -> DimSpec:
    """One element of `Tensor[...]` or `Dim[...]` as a `DimSpec`."""
    if isinstance(item, bool):
        raise AnnotationError(f"{where}: {item!r} is not a size; use an int, a TypeVar or a string")
    if isinstance(item, int):
        if item < 0:
            raise AnnotationError(f"{where}: size {item} is negative")
        return Fixed(item)
    if isinstance(item, TypeVar):
        return Named(item.__name__)
    if isinstance(item, str):
        try:
            expr = parse(item)
        except ExprSyntaxError as err:
            raise AnnotationError(f"{where}: {err}") from None
        if expr.symbol_name is not None:
            return Named(expr.symbol_name)
        value = expr.const_value
        return Fixed(value) if value is not None else Computed(expr, item)
    if item is Any or item is int:  # `Tensor[B, int]`: a size of unknown value, as the static checker reads it
        return Wildcard()
    origin = get_origin(item)
    if origin is Literal:
        (value,) = get_args(item)
        return read_dim(value, where)
    if origin in _UNPACK:
        (inner,) = get_args(item)
        if isinstance(inner, _TYPE_VAR_TUPLES):
            return Variadic(inner.__name__)
    if isinstance(item, _TYPE_VAR_TUPLES):
        raise AnnotationError(f"{where}: write *{item.__name__} (or Unpack[{item.__name__}]) for a TypeVarTuple")
    raise AnnotationError(
        f"{where}: {item!r} is not a dimension; use an int, a TypeVar, a string such as \"D//4\", "
        "a Literal int, *Batch for a TypeVarTuple, or Any (or int) for an unknown size"
    )


def read_shape(item: object) -> ShapeSpec:
    items = item if isinstance(item, tuple) else (item,)
    dims = tuple(read_dim(d, "Tensor[...]") for d in items)
    if sum(isinstance(d, Variadic) for d in dims) > 1:
        raise AnnotationError(f"Tensor[...]: at most one *TypeVarTuple per shape, got {ShapeSpec(dims)}")
    return ShapeSpec(dims)


# -- dtype markers -----------------------------------------------------------------------


@dataclass(frozen=True)
class DTypeRule:
    """A set of accepted dtypes, written `Annotated[Tensor[B, T], tyr.Float]`."""

    name: str
    dtypes: frozenset[torch.dtype]

    def __str__(self) -> str:
        return self.name


def _dtypes_where(test: str) -> frozenset[torch.dtype]:
    every = {getattr(torch, n) for n in dir(torch) if isinstance(getattr(torch, n, None), torch.dtype)}
    if test == "float":
        return frozenset(d for d in every if d.is_floating_point)
    if test == "complex":
        return frozenset(d for d in every if d.is_complex)
    if test == "bool":
        return frozenset({torch.bool})
    return frozenset(d for d in every if not d.is_floating_point and not d.is_complex and d is not torch.bool)


Float = DTypeRule("Float", _dtypes_where("float"))
Integer = DTypeRule("Integer", _dtypes_where("integer"))
Bool = DTypeRule("Bool", _dtypes_where("bool"))
Complex = DTypeRule("Complex", _dtypes_where("complex"))


# -- the public runtime objects ----------------------------------------------------------


class _ShapedTensor(typing._AnnotatedAlias, _root=True):  # type: ignore[name-defined, call-arg, misc]
    """`Annotated[torch.Tensor, ShapeSpec(...)]` that, as an alias, takes sizes for its type variables:
    `Hidden[32, T]` for `Hidden = Tensor[B, T, 768]` (also inside `tuple[...]`, `Optional[...]`)."""

    def __init__(self, spec: ShapeSpec, parameters: tuple[object, ...]) -> None:
        super().__init__(torch.Tensor, (spec,))
        self.__parameters__ = parameters

    def __getitem__(self, args: object) -> Any:
        values = args if isinstance(args, tuple) else (args,)
        names = [p.__name__ for p in self.__parameters__]  # type: ignore[attr-defined]
        (spec,) = self.__metadata__
        if len(values) != len(names):
            raise TypeError(f"{spec} takes {len(names)} sizes ({', '.join(names)}), {len(values)} given")
        given = {name: _as_expr(read_dim(value, f"size {name} of {spec}")) for name, value in zip(names, values)}
        return _shaped(ShapeSpec(tuple(_substitute(dim, given) for dim in spec.dims)), sys._getframe(1).f_globals)


def _as_expr(dim: DimSpec) -> Expr:
    if isinstance(dim, Fixed):
        return const(dim.size)
    if isinstance(dim, Named):
        return sym(dim.name)
    if isinstance(dim, Computed):
        return dim.expr
    raise AnnotationError(f"{dim} cannot be given for a single size")


def _substitute(dim: DimSpec, given: dict[str, Expr]) -> DimSpec:
    if isinstance(dim, Named) and dim.name in given:
        expr = given[dim.name]
    elif isinstance(dim, Computed) and dim.expr.symbols & given.keys():
        expr = dim.expr.substitute({name: e for name, e in given.items() if name in dim.expr.symbols})
    else:
        return dim
    broadcast = isinstance(dim, Named) and dim.broadcast
    if expr.const_value is not None:
        return Fixed(expr.const_value, broadcast)
    if expr.symbol_name is not None:
        return Named(expr.symbol_name, broadcast)
    return Computed(expr, str(expr))


def tensor_parameters(items: tuple[object, ...], namespace: dict[str, Any]) -> tuple[object, ...]:
    """The type variables of `Tensor[*items]`, as the static checker orders an alias's: the bare
    ones, then those that only size strings name, in order of appearance.  A name in a string is
    the TypeVar of that name in `namespace` (the module writing it), or else one made for it."""
    bare: dict[str, object] = {}
    named: dict[str, object] = {}
    for item in items:
        if isinstance(item, TypeVar):
            bare.setdefault(item.__name__, item)
        elif isinstance(item, str):
            try:
                expr = parse(item)
            except ExprSyntaxError:
                continue  # (read_shape has said so)
            names = names_in_order(item)
            for name in names:
                found = namespace.get(name)
                var = found if isinstance(found, TypeVar) else _made_type_variable(name)
                (bare if expr.symbol_name is not None else named).setdefault(name, var)
    return tuple({**bare, **{n: v for n, v in named.items() if n not in bare}}.values())


@functools.cache
def _made_type_variable(name: str) -> TypeVar:
    return TypeVar(name)


def _shaped(spec: ShapeSpec, namespace: dict[str, Any], items: tuple[object, ...] | None = None) -> Any:
    if items is None:
        items = tuple(dim.name if isinstance(dim, Named) else dim.text for dim in spec.dims if isinstance(dim, (Named, Computed)))
    return _ShapedTensor(spec, tensor_parameters(items, namespace))


class _TensorMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, torch.Tensor)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, torch.Tensor)

    def __getitem__(cls, item: object) -> Any:
        items = item if isinstance(item, tuple) else (item,)
        return _shaped(read_shape(item), sys._getframe(1).f_globals, items)


class Tensor(metaclass=_TensorMeta):
    """A `torch.Tensor` annotated with its shape: `Tensor[B, T, 768]`.

    Values are ordinary `torch.Tensor`s (`isinstance(t, Tensor)` is true for any
    tensor); the subscript is read by mypy (with tyr's plugin) and by `@checked`.
    """


class _DimMeta(type):
    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, int) and not isinstance(obj, bool)

    def __getitem__(cls, item: object) -> Any:
        dim = read_dim(item, "Dim[...]")
        if isinstance(dim, (Variadic, Wildcard, Evaluated)):
            raise AnnotationError(f"Dim[...] takes one size, not {dim}")
        return Annotated[int, DimMarker(dim)]


class Dim(metaclass=_DimMeta):
    """An `int` whose value is a size: `Dim[D]`; `Dim[768]` is the literal 768."""


# -- reading a whole hint ----------------------------------------------------------------


@dataclass(frozen=True)
class TensorHint:
    shape: ShapeSpec | None  # None: bare Tensor, any shape
    dtype: DTypeRule | None


@dataclass(frozen=True)
class DimHint:
    dim: Fixed | Named | Computed


@dataclass(frozen=True)
class OptionalHint:
    inner: TensorHint | DimHint | TupleHint


@dataclass(frozen=True)
class TupleHint:
    items: tuple[Hint | None, ...]  # None: an item tyr does not check (beartype does)


Hint = TensorHint | DimHint | OptionalHint | TupleHint


def _dtype_rule(meta: object) -> DTypeRule | None:
    if isinstance(meta, DTypeRule):
        return meta
    if isinstance(meta, torch.dtype):
        return DTypeRule(str(meta).removeprefix("torch."), frozenset({meta}))
    return None


def read_hint(hint: object) -> Hint | None:
    """What tyr checks for one annotation; None when it has nothing shape-related."""
    if hint is Tensor or hint is torch.Tensor:
        return TensorHint(None, None)
    from tyr._jaxtyping import read_jaxtyping  # (it builds on this module)

    jaxtyping_hint = read_jaxtyping(hint)
    if jaxtyping_hint is not None:
        return jaxtyping_hint
    origin = get_origin(hint)
    if origin is Annotated:
        base, *metadata = get_args(hint)
        shapes = [m for m in metadata if isinstance(m, ShapeSpec)]
        dims = [m for m in metadata if isinstance(m, DimMarker)]
        dtypes = [r for r in map(_dtype_rule, metadata) if r is not None]
        if dims:
            return DimHint(dims[0].dim)
        if shapes or dtypes or base is torch.Tensor or base is Tensor:
            return TensorHint(shapes[0] if shapes else None, dtypes[0] if dtypes else None)
        return read_hint(base)
    if origin is Union or type(hint).__name__ == "UnionType":
        members = [a for a in get_args(hint) if a is not type(None)]
        if len(members) == 1 and len(get_args(hint)) == 2:
            inner = read_hint(members[0])
            if isinstance(inner, (TensorHint, DimHint, TupleHint)):
                return OptionalHint(inner)
        return None
    if origin is tuple:
        args = get_args(hint)
        if not args or (len(args) == 2 and args[1] is Ellipsis):
            return None
        items = tuple(read_hint(a) for a in args)
        return TupleHint(items) if any(i is not None for i in items) else None
    return None
