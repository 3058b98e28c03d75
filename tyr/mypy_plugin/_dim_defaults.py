"""A `Dim` parameter with a default: `def __init__(self, dim: Dim[D] = 512)`.

A plain `int` where a `Dim` is wanted is never an error (SHAPES.md §3): at a call the plugin takes
it, and the size is unknown.  mypy also checks a parameter's default against its annotation,
where no hook runs, and `512` is no `Dim[D]`.  So right after parsing, before names are bound,
such a default is read as a value of type `Any`: the call that leaves the argument out binds
nothing (the size is unknown, as for any plain `int`), and nothing else about the function changes.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    CastExpr,
    ClassDef,
    Decorator,
    EllipsisExpr,
    FuncDef,
    MypyFile,
    OverloadedFuncDef,
    Statement,
)
from mypy.types import AnyType, TypeOfAny, UnboundType

from tyr.mypy_plugin._statements import inner_blocks


def read_dim_defaults_as_any(file: MypyFile) -> None:
    for function in _functions(file.defs):
        for argument in function.arguments:
            default = argument.initializer
            if default is None or isinstance(default, (EllipsisExpr, CastExpr)) or not _is_dim(argument.type_annotation):
                continue
            cast = CastExpr(default, AnyType(TypeOfAny.special_form))
            cast.set_line(default)
            argument.initializer = cast


def _is_dim(annotation: object) -> bool:
    """`Dim[D]`, `tyr.Dim[768]`, as parsed (the names are not bound yet)."""
    return isinstance(annotation, UnboundType) and annotation.name.rsplit(".", 1)[-1] == "Dim"


def _functions(statements: list[Statement]) -> Iterator[FuncDef]:
    """Every function of a module: in classes, nested in functions, decorated or overloaded."""
    for stmt in statements:
        if isinstance(stmt, Decorator):
            stmt = stmt.func
        if isinstance(stmt, OverloadedFuncDef):
            for item in stmt.items:
                yield from _functions([item])
            if stmt.impl is not None:
                yield from _functions([stmt.impl])
        elif isinstance(stmt, FuncDef):
            yield stmt
            yield from _functions(stmt.body.body)
        elif isinstance(stmt, ClassDef):
            yield from _functions(stmt.defs.body)
        else:
            for block in inner_blocks(stmt):
                yield from _functions(block.body)
