"""The shapes tyr infers in a program: mypy with tyr's plugin, run once, read back per function.

`collect(paths)` runs mypy as `mypy PATHS` would (the project's configuration, found
as mypy finds it), with tyr's plugin on, `allow_redefinition` (so each rebinding of
a name has its own type), and the bodies of unannotated functions checked too.
Then it walks each function of the given files and records, for every parameter
and every name an assignment binds to a tensor, the shape mypy's types give it.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from mypy import build
from mypy.lookup import lookup_fully_qualified
from mypy.main import process_options
from mypy.options import Options
from mypy.plugin import Plugin
from mypy.nodes import (
    AssignmentStmt,
    Block,
    ClassDef,
    Decorator,
    Expression,
    ForStmt,
    FuncDef,
    IfStmt,
    MatchStmt,
    MypyFile,
    NameExpr,
    OverloadedFuncDef,
    Statement,
    StarExpr,
    TryStmt,
    TupleExpr,
    ListExpr,
    TypeInfo,
    Var,
    WhileStmt,
    WithStmt,
)
from mypy.types import CallableType, NoneType, TupleType, Type, UnionType, get_proper_type

from tyr.mypy_plugin._types import Lookup, NotATensor, Scope, is_tensor_instance
from tyr.shape_rules import MaybeShape, Variadic
from tyr.shape_rules.core import show

_PLUGIN = "tyr.mypy_plugin"
_STUBS = Path(__file__).resolve().parent.parent / "typed_stubs"  # a checkout's stubs (installed: torch-stubs)


@dataclass(frozen=True)
class Binding:
    """A name bound to a tensor: a parameter, or a target of an assignment."""

    line: int
    end_line: int  # the statement's last line, where a comment goes
    name: str
    shape: str  # `(B, T, 768)`; `?` for an unknown dim, `(...)` for an unknown number of dims
    known: bool  # every dim known (names and expressions of them count as known)
    parameter: bool


@dataclass
class FunctionShapes:
    name: str  # `Block.forward`, `<module>` for a file's top level
    line: int
    bindings: list[Binding] = field(default_factory=list)


@dataclass
class FileShapes:
    path: Path
    module: str
    functions: list[FunctionShapes] = field(default_factory=list)


@dataclass
class Report:
    files: list[FileShapes]
    errors: list[str]  # what mypy reported, for the user to look at with mypy itself

    def assignments(self) -> Iterator[Binding]:
        for file in self.files:
            for function in file.functions:
                yield from (b for b in function.bindings if not b.parameter)


def _process_options(args: list[str], stubs: list[str]) -> tuple[list[build.BuildSource], Options]:
    """mypy's reading of the command line.  The stubs given as sources are named by the package bases
    mypy knows then (`torch.nn.parameter`, not `parameter`): from any directory, so the stubs'
    directory is one of them while mypy reads the command line (`MYPYPATH`)."""
    previous = os.environ.get("MYPYPATH")
    if stubs:
        os.environ["MYPYPATH"] = os.pathsep.join([*stubs, *([previous] if previous else [])])
    try:
        return process_options(args, stdout=io.StringIO(), stderr=sys.stderr)  # (exits on a bad path)
    finally:
        if previous is None:
            os.environ.pop("MYPYPATH", None)
        else:
            os.environ["MYPYPATH"] = previous


def collect(paths: Sequence[str], config_file: str | None = None) -> Report:
    """Run mypy with tyr's plugin over `paths` (files or packages) and read the shapes of their functions."""
    # In a checkout, tyr's stubs are sources too (as its mypy.ini lists them): mypy reads them as partial stubs.
    stubs = [str(_STUBS)] if _STUBS.is_dir() else []
    args = [*paths, *stubs, "--allow-redefinition", "--show-traceback"]
    if stubs:
        args += ["--explicit-package-bases"]
    if config_file is not None:
        args += ["--config-file", config_file]
    sources, options = _process_options(args, stubs)
    if _PLUGIN not in options.plugins:
        options.plugins.append(_PLUGIN)
    if stubs and str(_STUBS) not in options.mypy_path:
        options.mypy_path = [*options.mypy_path, str(_STUBS)]
    options.export_types = True
    targets = {s.module for s in sources if s.path and not (stubs and Path(s.path).resolve().is_relative_to(_STUBS))}
    for module in targets:  # unannotated functions are read too (only in the files reported on)
        options.per_module_options.setdefault(module, {})["check_untyped_defs"] = True
    # The files reported on are read anew (given as text, mypy's cache cannot stand for them: it has no types).
    sources = [
        build.BuildSource(s.path, s.module, Path(s.path).read_text(), s.base_dir) if s.module in targets and s.path else s
        for s in sources
    ]
    keeper = _Keeper(options, targets)
    result = build.build(sources, options, extra_plugins=[keeper])
    keeper.restore()
    modules = {name: state.tree for name, state in result.graph.items() if state.tree is not None}

    def lookup(fullname: str) -> TypeInfo | None:
        node = lookup_fully_qualified(fullname, modules)
        return node.node if node is not None and isinstance(node.node, TypeInfo) else None

    reader = _Reader(result.types, lookup)
    files = [reader.file(modules[s.module], Path(s.path)) for s in sources if s.module in targets and s.path]
    return Report(sorted(files, key=lambda f: str(f.path)), result.errors)


class _Keeper(Plugin):
    """Keeps the statements of the files reported on: mypy empties each block of a module it has checked.

    (mypy's `preserve_asts` would keep them, but also check the bodies of every installed package.)
    """

    def __init__(self, options: Options, modules: set[str]) -> None:
        super().__init__(options)
        self.modules = modules
        self.kept: list[tuple[list[Statement], list[Statement]]] = []

    def get_additional_deps(self, file: MypyFile) -> list[tuple[int, str, int]]:
        if file.fullname in self.modules:  # just parsed
            self.kept.append((file.defs, list(file.defs)))
            self.kept += [(block.body, list(block.body)) for block in _all_blocks(file.defs)]
        return []

    def restore(self) -> None:
        for statements, kept in self.kept:
            statements[:] = kept


class _Reader:
    def __init__(self, types: dict[Expression, Type], lookup: Lookup) -> None:
        self.types = types
        self.lookup = lookup

    def file(self, tree: MypyFile, path: Path) -> FileShapes:
        shapes = FileShapes(path, tree.fullname)
        top = FunctionShapes("<module>", 1)
        self._statements(tree.defs, top, shapes, prefix="")
        if top.bindings:
            shapes.functions.insert(0, top)
        return shapes

    # -- walking --------------------------------------------------------------------------------

    def _statements(self, body: Sequence[Statement], into: FunctionShapes, file: FileShapes, prefix: str) -> None:
        for statement in body:
            self._statement(statement, into, file, prefix)

    def _statement(self, s: Statement, into: FunctionShapes, file: FileShapes, prefix: str) -> None:
        if isinstance(s, AssignmentStmt):
            into.bindings.extend(self._assignment(s))
        elif isinstance(s, (FuncDef, Decorator, OverloadedFuncDef)):
            for function in _functions(s):
                self._function(function, file, prefix)
        elif isinstance(s, ClassDef):
            self._statements(s.defs.body, into, file, f"{prefix}{s.name}.")
        else:
            for block in _blocks_of(s):
                self._statements(block.body, into, file, prefix)

    def _function(self, function: FuncDef, file: FileShapes, prefix: str) -> None:
        shapes = FunctionShapes(f"{prefix}{function.name}", function.line)
        signature = function.type
        if isinstance(signature, CallableType):
            for argument, typ in zip(function.arguments, signature.arg_types):
                shape = self._shape(typ)
                if shape is not None:
                    line = argument.line if argument.line > 0 else function.line
                    shapes.bindings.append(Binding(line, line, argument.variable.name, *shape, parameter=True))
        file.functions.append(shapes)
        self._statements(function.body.body, shapes, file, f"{prefix}{function.name}.")

    def _assignment(self, s: AssignmentStmt) -> list[Binding]:
        found: list[Binding] = []
        for target in s.lvalues:
            for name, typ in self._targets(target, s):
                shape = self._shape(typ) if typ is not None else None
                if shape is not None:
                    found.append(Binding(s.line, s.end_line or s.line, name, *shape, parameter=False))
        return found

    def _targets(self, target: Expression, s: AssignmentStmt) -> list[tuple[str, Type | None]]:
        """Each name a target binds, with the type of what it is bound to."""
        if isinstance(target, NameExpr):
            if s.type is not None:
                return [(target.name, s.type)]  # annotated: what the user declared
            value = self.types.get(s.rvalue) if len(s.lvalues) == 1 else None
            return [(target.name, value if value is not None else self._name_type(target))]
        if isinstance(target, (TupleExpr, ListExpr)):
            items: list[Type | None] | None = None
            if len(s.lvalues) == 1 and isinstance(s.rvalue, (TupleExpr, ListExpr)):
                if len(s.rvalue.items) == len(target.items):  # `q, k = f(q), f(k)`: each its own
                    items = [self.types.get(item) for item in s.rvalue.items]
            elif len(s.lvalues) == 1:
                value = get_proper_type(self.types.get(s.rvalue))
                if isinstance(value, TupleType) and len(value.items) == len(target.items):
                    items = list(value.items)
            names: list[tuple[str, Type | None]] = []
            for i, item in enumerate(target.items):
                if isinstance(item, NameExpr):
                    names.append((item.name, items[i] if items is not None else self._name_type(item)))
                elif isinstance(item, StarExpr) and isinstance(item.expr, NameExpr):
                    names.append((item.expr.name, None))
            return names
        return []

    def _name_type(self, name: NameExpr) -> Type | None:
        typ = self.types.get(name)
        if typ is None and isinstance(name.node, Var):
            typ = name.node.type
        return typ

    # -- shapes ---------------------------------------------------------------------------------

    def _shape(self, typ: Type) -> tuple[str, bool] | None:
        """The shape text of a tensor type (a union joined with `|`), and whether it is fully known; None if no tensor."""
        t = get_proper_type(typ)
        items = t.items if isinstance(t, UnionType) else [t]
        texts: list[str] = []
        known = True
        tensors = 0
        for item in items:
            p = get_proper_type(item)
            if isinstance(p, NoneType):
                texts.append("None")
                continue
            if not is_tensor_instance(p):
                return None
            tensors += 1
            scope = Scope(self.lookup)
            try:
                shape = scope.tensor_shape(p)
            except NotATensor:
                return None
            texts.append(scope.render(_show(shape)))
            known = known and _known(shape)
        if not tensors:
            return None
        return " | ".join(dict.fromkeys(texts)), known


def _blocks_of(s: Statement) -> list[Block]:
    """The blocks a compound statement (not a function or a class) runs."""
    if isinstance(s, Block):
        return [s]
    if isinstance(s, IfStmt):
        return [*s.body, *([s.else_body] if s.else_body else [])]
    if isinstance(s, (ForStmt, WhileStmt)):
        return [s.body, *([s.else_body] if s.else_body else [])]
    if isinstance(s, WithStmt):
        return [s.body]
    if isinstance(s, TryStmt):
        return [s.body, *s.handlers, *(b for b in (s.else_body, s.finally_body) if b is not None)]
    if isinstance(s, MatchStmt):
        return list(s.bodies)
    return []


def _all_blocks(statements: Sequence[Statement]) -> Iterator[Block]:
    """Every block below these statements, in functions and classes too."""
    for s in statements:
        if isinstance(s, (FuncDef, Decorator, OverloadedFuncDef)):
            for function in _functions(s):
                yield function.body
                yield from _all_blocks(function.body.body)
        elif isinstance(s, ClassDef):
            yield s.defs
            yield from _all_blocks(s.defs.body)
        else:
            for block in _blocks_of(s):
                yield block
                yield from _all_blocks(block.body)


def _functions(node: FuncDef | Decorator | OverloadedFuncDef) -> list[FuncDef]:
    if isinstance(node, FuncDef):
        return [node]
    if isinstance(node, Decorator):
        return [node.func]
    found: list[FuncDef] = []
    for item in node.items:
        found.extend(_functions(item))
    if node.impl is not None:
        found.extend(_functions(node.impl))
    return found


def _show(shape: MaybeShape) -> str:
    if shape is None:
        return "(...)"
    return "(" + ", ".join(show(s) for s in shape) + ")"


def _known(shape: MaybeShape) -> bool:
    return shape is not None and all(s is not None for s in shape if not isinstance(s, Variadic))
