"""jaxtyping's shape strings (`"b c h w"`, `"*batch 3"`, `"#n n+1"`), read once for the runtime and the mypy plugin.

jaxtyping writes a shape as one string of dims separated by spaces.  Its rules,
as its documentation states them, and what each dim is read as here:

* `b`: a named dim, bound once per call and shared by every argument and the
  return value (`NamedDim`);
* `3`: a fixed size (`FixedDim`);
* `*b`: any number of dims, bound together per call (`VariadicDim("b")`);
  `...` (or `*_`) is any number of dims bound to nothing (`VariadicDim(None)`);
* `_` (or `_b`, a name kept for the reader): one dim of any size (`AnonymousDim`);
* `#b`, `#3`, `*#b`: broadcastable: a size of 1 is also accepted (`broadcast=True`);
* `?b`: a name that depends on the position inside a PyTree; outside one it is a
  plain name (`NamedDim`);
* `rows=3`, `rows=n`: the part before `=` is documentation, the dim is what follows;
* anything else is a Python expression over the named dims (`n+1`, `2*d`,
  `min(a,b)`, and `{arg}` for an argument's value), evaluated, never bound
  (`SymbolicDim`; `expr` is its size when tyr's arithmetic can read it).

`parse_dims` raises `JaxShapeError` exactly where jaxtyping refuses the string.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from tyr._symbolic import Expr, ExprSyntaxError, parse


class JaxShapeError(ValueError):
    """A shape string jaxtyping itself refuses (its reason is the message)."""


@dataclass(frozen=True)
class NamedDim:
    name: str
    broadcast: bool = False


@dataclass(frozen=True)
class FixedDim:
    size: int
    broadcast: bool = False


@dataclass(frozen=True)
class SymbolicDim:
    text: str
    expr: Expr | None  # None: a Python expression beyond `+ - * //` (`min(a,b)`, `a/2`, `{n}`)
    broadcast: bool = False


@dataclass(frozen=True)
class AnonymousDim:
    pass


@dataclass(frozen=True)
class VariadicDim:
    name: str | None  # None: `...`, any number of dims bound to nothing
    broadcast: bool = False


JaxDim = NamedDim | FixedDim | SymbolicDim | AnonymousDim | VariadicDim


@lru_cache(maxsize=1024)
def parse_dims(text: str) -> tuple[JaxDim, ...]:
    """The dims of a jaxtyping shape string, in order."""
    dims = tuple(_parse_dim(elem) for elem in text.split())
    if sum(isinstance(d, VariadicDim) for d in dims) > 1:
        raise JaxShapeError("Cannot use variadic specifiers (`*name` or `...`) more than once.")
    return dims


@dataclass
class _Marks:
    """The prefixes one dim carries."""

    broadcast: bool = False
    variadic: bool = False
    anonymous: bool = False
    treepath: bool = False


_PREFIXES = {"#": "broadcast", "*": "variadic", "_": "anonymous", "?": "treepath"}


def _parse_dim(elem: str) -> JaxDim:
    if "," in elem and "(" not in elem:
        raise JaxShapeError("Axes should be separated with spaces, not commas")
    if elem.endswith("#"):
        raise JaxShapeError("Broadcastable axes are denoted with a # at the start, not at the end")
    if "..." in elem:
        if elem != "...":
            raise JaxShapeError(f"Anonymous multiple axes '...' must be used on its own; got {elem}")
        return VariadicDim(None)
    marks = _Marks()
    while elem:
        mark = _PREFIXES.get(elem[0])
        if mark is not None:
            if getattr(marks, mark):
                raise JaxShapeError(f"Do not use {elem[0]} twice in one axis")
            setattr(marks, mark, True)
            elem = elem[1:]
        elif elem.count("=") == 1:
            elem = elem.split("=")[1]  # `rows=3`: the name is documentation
        else:
            break
    if not elem or elem.isidentifier():
        return _named(elem, marks)
    try:
        size = int(elem)
    except ValueError:
        return _symbolic(elem, marks)
    if marks.variadic or marks.anonymous or marks.treepath:
        raise JaxShapeError(f"A fixed axis cannot be variadic, anonymous or tree-path dependent: {elem}")
    return FixedDim(size, marks.broadcast)


def _named(name: str, marks: _Marks) -> JaxDim:
    if marks.anonymous:
        if marks.broadcast:
            raise JaxShapeError("Cannot have an axis be both anonymous and broadcastable, e.g. `#_`")
        return VariadicDim(None) if marks.variadic else AnonymousDim()
    if marks.variadic:
        return VariadicDim(name, marks.broadcast)
    return NamedDim(name, marks.broadcast)


def _symbolic(text: str, marks: _Marks) -> SymbolicDim:
    if marks.anonymous or marks.variadic or marks.treepath:
        raise JaxShapeError(f"A symbolic axis cannot be anonymous, variadic or tree-path dependent: {text}")
    try:
        expr: Expr | None = parse(text) if "{" not in text else None
    except (ExprSyntaxError, ZeroDivisionError, RecursionError):
        expr = None
    return SymbolicDim(text, expr, marks.broadcast)
