"""A `Dim` parameter with a default: `def __init__(self, dim: Dim[D] = 512)`.

A plain `int` where a `Dim` is wanted is never an error (SHAPES.md §3): at a call the plugin takes
it, and the size is unknown.  mypy also checks a parameter's default against its annotation,
where no hook runs, and `512` is no `Dim[D]`.  So right after parsing, before names are bound,
such a default is read as a value of type `Any`: the call that leaves the argument out binds
nothing (the size is unknown, as for any plain `int`), and nothing else about the function changes.
"""

from __future__ import annotations

from mypy.nodes import (
    CastExpr,
    EllipsisExpr,
    FuncDef,
    MypyFile,
)
from mypy.types import AnyType, TypeOfAny, UnboundType

from tyr.mypy_plugin._statements import every_statement


def read_dim_defaults_as_any(file: MypyFile) -> None:
    for function in every_statement(file.defs):
        if not isinstance(function, FuncDef):
            continue
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
