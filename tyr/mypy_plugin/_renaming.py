"""Without `allow_redefinition`: a shape-annotated parameter that its function rebinds.

mypy's default keeps a parameter's annotation as its type for the whole body and checks each
assignment against it before any hook runs, so `x = self.fc(x)` on `x: Tensor[B, T, 16]` would
be an error, and a read after it would give the old shape.  So, right after parsing, tyr gives
each such parameter a local in its place: the body starts with `x' = x.data` and every use of
`x` in it becomes `x'` (mypy's own `allow_redefinition_old` renames the same way).  The local is
an ordinary inferred name, which `_rebinding` declares as the tensor of unknown shape while
reads give what was last assigned.  Only parameters whose annotation is a shape
(`Tensor[...]`, jaxtyping's `Float[Tensor, "..."]`) are renamed: the names of code without
shape annotations stay as they are.

A parameter whose annotation holds a shape in another form, an `Optional[Tensor[B, T]]` (or
`Tensor[B, T] | None`: `mask = mask[:, None, None, :]`) or an alias of a shape defined in the
module (`x: Img[B, C, H]` for `Img = Tensor[B, C, H, H]`), is renamed too; its local is declared
with the shapes erased (`mask': Optional[Tensor] = mask`), which admits every later value and is
narrowed, as any declared name is, to the one assigned.  (An alias imported from another module
is not known this early: such a parameter keeps its annotation.)

A local first assigned a `Dim` parameter by name (`dim = d`) and later a name or a literal
(`dim = d_out`, an `int`) is declared `int` up front, as torch's types would have it.

A parameter that an inner function, lambda or class reads is left alone (a closure sees the last
binding), as is one that `del`, `global`, `nonlocal` or an import binds, and every parameter of
a function with a `match` statement.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    ClassDef,
    Context,
    Decorator,
    DelStmt,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncDef,
    GlobalDecl,
    IfStmt,
    Import,
    ImportFrom,
    IndexExpr,
    IntExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    NonlocalDecl,
    OpExpr,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    StarExpr,
    Statement,
    StrExpr,
    TempNode,
    TryStmt,
    TupleExpr,
    WhileStmt,
    WithStmt,
)
from mypy.traverser import all_name_and_member_expressions
from mypy.exprtotype import TypeTranslationError, expr_to_unanalyzed_type
from mypy.options import Options
from mypy.types import AnyType, Type, TypeOfAny, UnboundType, UnionType

from tyr.mypy_plugin._jaxtyping_imports import DTYPES
from tyr.mypy_plugin._statements import walk


def rename_rebound_parameters(file: MypyFile) -> None:
    """Give each same-block rebinding of a shape-annotated parameter its own variable."""
    if file.is_stub:
        return
    aliases = _shape_aliases(file.defs)
    for function in _functions(file.defs):
        # the parameters to rename: None for a shape (its local is `x.data`), else the erased annotation
        declared: dict[str, Type | None] = {}
        for arg in function.arguments:
            if _is_shape(arg.type_annotation):
                declared[arg.variable.name] = None
            elif arg.type_annotation is not None:
                erased = _erased(arg.type_annotation, aliases)
                if erased is not None:
                    declared[arg.variable.name] = erased
        if declared:
            unrenamable = _unrenamable(function)
            renamable = {name: erased for name, erased in declared.items() if name not in unrenamable}
            _rename(function, renamable)
            _copy_through_data(function, {name for name, erased in renamable.items() if erased is None})
        _declare_sizes_as_ints(function)


def _functions(defs: list[Statement]) -> Iterator[FuncDef]:
    """The module's functions and the methods of its classes (found without walking any body:
    this runs on every module mypy parses, torch's included)."""
    for stmt in defs:
        if isinstance(stmt, FuncDef):
            yield stmt
        elif isinstance(stmt, Decorator):
            yield stmt.func
        elif isinstance(stmt, OverloadedFuncDef):
            for item in stmt.items:
                yield item.func if isinstance(item, Decorator) else item
        elif isinstance(stmt, ClassDef):
            yield from _functions(stmt.defs.body)


def _is_shape(annotation: Type | None) -> bool:
    """`Tensor[...]`, or a jaxtyping dtype over a tensor (`Float[Tensor, "b n"]`): jaxtyping over
    numpy or jax arrays, and a user's own `Float[...]`, keep their parameters (an array's `.data`
    is not the array)."""
    if not isinstance(annotation, UnboundType) or not annotation.args:
        return False
    last = _last_name(annotation)
    if last == "Tensor":
        return True
    array = annotation.args[0]
    return last in DTYPES and len(annotation.args) == 2 and isinstance(array, UnboundType) and _last_name(array) == "Tensor"


def _last_name(annotation: UnboundType) -> str:
    return annotation.name.rpartition(".")[2]


def _rename(function: FuncDef, names: dict[str, Type | None]) -> None:
    """Each parameter of `names` that the body assigns becomes a local, `x'`, defined first thing
    as `x' = x.data` (the same tensor, through a hook that lets `_rebinding` declare it), or, for
    a parameter given an erased annotation, declared `x': <erased> = x` and assigned `x' = x`."""
    body = function.body.body
    assigned = {ref.name for stmt in body for ref in _bound(stmt) if ref.name in names}
    if not assigned:
        return
    for stmt in body:
        for ref in _references(stmt):
            if ref.name in assigned:
                ref.name += "'"
    for name in sorted(assigned):
        erased = names[name]
        if erased is None:
            _prepend(function, [AssignmentStmt([NameExpr(name + "'")], _data_of(name, function))])
        else:
            # (mypy narrows a declared name by what is assigned after its declaration, not by the value in it)
            _prepend(function, [
                AssignmentStmt([NameExpr(name + "'")], NameExpr(name), type=erased, new_syntax=True),
                AssignmentStmt([NameExpr(name + "'")], NameExpr(name)),
            ])


def _prepend(function: FuncDef, definitions: list[AssignmentStmt]) -> None:
    """`definitions` first thing in the function's body (after its docstring), on the function's line."""
    body = function.body.body
    start = 1 if body and _is_docstring(body[0]) else 0
    for definition in definitions:
        for node in (definition, definition.lvalues[0], definition.rvalue):
            node.set_line(function)
    body[start:start] = definitions


def _shape_aliases(defs: list[Statement]) -> dict[str, Type]:
    """The module's aliases of a shape (`Img = Tensor[B, C, H, H]`, `Mask = Optional[Tensor[B, T]]`,
    jaxtyping's `Img = Float[Tensor, "b c h w"]`), each by its name: its type with the shapes erased."""
    aliases: dict[str, Type] = {}
    for stmt in defs:
        if not (isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1 and isinstance(stmt.lvalues[0], NameExpr)):
            continue
        if stmt.type is not None and not (isinstance(stmt.type, UnboundType) and _last_name(stmt.type) == "TypeAlias"):
            continue
        if not isinstance(stmt.rvalue, (IndexExpr, OpExpr, NameExpr, MemberExpr)):
            continue  # (a constant or a call, as most of a module's assignments are: no type)
        try:
            written = expr_to_unanalyzed_type(stmt.rvalue, _OPTIONS, allow_new_syntax=True)
        except TypeTranslationError:
            continue
        erased = _erased(written, aliases)
        if erased is not None:
            aliases[stmt.lvalues[0].name] = erased
    return aliases


_OPTIONS = Options()
"""mypy's defaults, which reading an expression as a type asks for."""


def _erased(annotation: Type, aliases: dict[str, Type]) -> Type | None:
    """`annotation` with each shape in it made a tensor of unknown shape (`Optional[Tensor]` for
    `Optional[Tensor[B, T]]`), where it is a shape, an alias of one in `aliases` (given its sizes or
    bare), or a union of those with `None`; None for any other annotation."""
    if isinstance(annotation, UnionType):
        items = _erased_items(annotation.items, aliases)
        if items is None:
            return None
        return UnionType(items, annotation.line, annotation.column, uses_pep604_syntax=annotation.uses_pep604_syntax)
    if not isinstance(annotation, UnboundType):
        return None
    if _is_shape(annotation):
        tensor = annotation if _last_name(annotation) == "Tensor" else annotation.args[0]
        assert isinstance(tensor, UnboundType)
        return UnboundType(tensor.name, [], line=annotation.line, column=annotation.column)
    if annotation.name in aliases:
        return aliases[annotation.name]
    if _last_name(annotation) in ("Optional", "Union"):
        args = _erased_items(annotation.args, aliases)
        return annotation.copy_modified(args=args) if args is not None else None
    return None


def _erased_items(items: Sequence[Type], aliases: dict[str, Type]) -> list[Type] | None:
    """The items of a union, `None` as it is and the others `_erased`; None unless all are one of
    the two and one at least is no `None`."""
    erased = [item if _is_none(item) else _erased(item, aliases) for item in items]
    if any(item is None for item in erased) or all(map(_is_none, items)):
        return None
    return [item for item in erased if item is not None]


def _is_none(t: Type) -> bool:
    return isinstance(t, UnboundType) and t.name == "None" and not t.args


def _data_of(name: str, where: Context) -> MemberExpr:
    """`name.data`, written at `where`'s line: the same tensor, through a hook `_rebinding` handles."""
    value = MemberExpr(NameExpr(name), "data")
    value.expr.set_line(where)
    value.set_line(where)
    return value


def _bound(stmt: Statement) -> Iterator[NameExpr]:
    """The names an assignment in a statement (or in the blocks in it) binds."""
    for inner in walk([stmt]):
        yield from _bound_by(inner)


def _bound_by(stmt: Statement) -> Iterator[NameExpr]:
    """The names one statement itself binds (not the blocks in it)."""
    if isinstance(stmt, AssignmentStmt) and stmt.type is None and stmt.unanalyzed_type is None:
        targets: list[Expression] = list(stmt.lvalues)
    elif isinstance(stmt, OperatorAssignmentStmt):
        targets = [stmt.lvalue]
    elif isinstance(stmt, ForStmt):
        targets = [stmt.index]
    elif isinstance(stmt, WithStmt):
        targets = [t for t in stmt.target if t is not None]
    else:
        return
    for target in targets:
        if isinstance(target, (NameExpr, TupleExpr, ListExpr, StarExpr)):
            yield from all_name_and_member_expressions(target)[0]


def _copy_through_data(function: FuncDef, shaped: set[str]) -> None:
    """`h = x` with `x` a shape-annotated parameter the body never rebinds, and `h` assigned again
    (`for layer in layers: h = layer(h)`): the first value becomes `x.data`, the same tensor through
    a hook, so that `_rebinding` declares `h` a name whose reads give what was last assigned.  (No
    hook runs for a bare name: `h` would be declared `x`'s shape, and a value of another shape
    assigned later would be an incompatible assignment, or `Any`.)"""
    counts: dict[str, int] = {}
    first: dict[str, Statement] = {}
    for stmt in walk(function.body.body):
        for ref in _bound_by(stmt):
            counts[ref.name] = counts.get(ref.name, 0) + 1
            first.setdefault(ref.name, stmt)
    parameters = {arg.variable.name for arg in function.arguments}
    for name, stmt in first.items():
        if name in parameters or counts[name] < 2 or not isinstance(stmt, AssignmentStmt):
            continue
        value = stmt.rvalue
        if len(stmt.lvalues) == 1 and isinstance(value, NameExpr) and value.name in shaped and counts.get(value.name, 0) == 0:
            stmt.rvalue = _data_of(value.name, value)


def _declare_sizes_as_ints(function: FuncDef) -> None:
    """`dim = d` (or `dim, i = d, 0`) with `d: Dim[D]` a parameter, and `dim` assigned again a name or a
    literal (`dim = d_out` with `d_out: int`): `dim` is declared `int` first thing, as torch's types would
    have it.  No hook runs for either value, so mypy would declare `dim` a `Dim[D]` and refuse the int;
    declared an int, each read still gives what was last assigned (mypy narrows a declared name by the
    value)."""
    sizes = {arg.variable.name for arg in function.arguments if _is_dim(arg.type_annotation)}
    if not sizes:
        return
    first: dict[str, Expression | None] = {}
    hookless: set[str] = set()  # names assigned again a value for which no hook runs (a name, a literal)
    for stmt in walk(function.body.body):
        for ref in _bound_by(stmt):
            value = _value_of(stmt, ref) if isinstance(stmt, AssignmentStmt) else None
            if ref.name not in first:
                first[ref.name] = value
            elif isinstance(value, (NameExpr, MemberExpr, IntExpr)):
                hookless.add(ref.name)
    parameters = {arg.variable.name for arg in function.arguments}
    for name, value in sorted(first.items()):
        # (a later value a hook reads, `n = n * 2`, is declared an int there, by `_rebinding`)
        if name in parameters or name not in hookless or not (isinstance(value, NameExpr) and value.name in sizes):
            continue
        no_value = TempNode(AnyType(TypeOfAny.special_form), no_rhs=True)
        _prepend(function, [AssignmentStmt([NameExpr(name)], no_value, type=UnboundType("int"), new_syntax=True)])


def _is_dim(annotation: Type | None) -> bool:
    return isinstance(annotation, UnboundType) and bool(annotation.args) and _last_name(annotation) == "Dim"


def _value_of(stmt: AssignmentStmt, ref: NameExpr) -> Expression | None:
    """The value `stmt` assigns to the name `ref` (its item, where a tuple is unpacked into names)."""
    for target in stmt.lvalues:
        if target is ref:
            return stmt.rvalue
        if isinstance(target, (TupleExpr, ListExpr)) and isinstance(stmt.rvalue, (TupleExpr, ListExpr)):
            if len(target.items) == len(stmt.rvalue.items) and ref in target.items:
                return stmt.rvalue.items[target.items.index(ref)]
    return None


def _is_docstring(stmt: Statement) -> bool:
    return isinstance(stmt, ExpressionStmt) and isinstance(stmt.expr, StrExpr)


def _references(stmt: Statement) -> Iterator[NameExpr]:
    """The names a statement and the blocks in it use or bind (lambdas included: mypy gives no way
    to tell them apart here; nested functions and classes excluded, see `_unrenamable`)."""
    for inner in walk([stmt]):
        for expr in _expressions(inner):
            yield from all_name_and_member_expressions(expr)[0]


def _expressions(stmt: Statement) -> list[Expression]:
    """The expressions of one statement itself (not of the blocks in it)."""
    found: list[Expression | None]
    if isinstance(stmt, AssignmentStmt):
        found = [*stmt.lvalues, stmt.rvalue]
    elif isinstance(stmt, OperatorAssignmentStmt):
        found = [stmt.lvalue, stmt.rvalue]
    elif isinstance(stmt, (ExpressionStmt, ReturnStmt, WhileStmt, DelStmt)):
        found = [stmt.expr]
    elif isinstance(stmt, IfStmt):
        found = list(stmt.expr)
    elif isinstance(stmt, ForStmt):
        found = [stmt.index, stmt.expr]
    elif isinstance(stmt, WithStmt):
        found = [*stmt.expr, *stmt.target]
    elif isinstance(stmt, AssertStmt):
        found = [stmt.expr, stmt.msg]
    elif isinstance(stmt, RaiseStmt):
        found = [stmt.expr, stmt.from_expr]
    elif isinstance(stmt, TryStmt):
        found = [*stmt.types, *stmt.vars]
    else:
        found = []
    return [expr for expr in found if expr is not None]


def _unrenamable(function: FuncDef) -> set[str]:
    """The names of a function that a renaming could get wrong: those an inner function or class
    reads (a closure sees the last binding), and those `del`, `global`, `nonlocal` or an import
    binds; every name, in a function with a `match` statement (its patterns bind names too)."""
    names: set[str] = set()
    for stmt in walk(function.body.body):
        if isinstance(stmt, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)):
            names |= _all_names(stmt)
        elif isinstance(stmt, (GlobalDecl, NonlocalDecl)):
            names.update(stmt.names)
        elif isinstance(stmt, DelStmt):
            names.update(ref.name for ref in all_name_and_member_expressions(stmt.expr)[0])
        elif isinstance(stmt, Import):
            names.update(alias or name.partition(".")[0] for name, alias in stmt.ids)
        elif isinstance(stmt, ImportFrom):
            names.update(alias or name for name, alias in stmt.names)
        elif isinstance(stmt, MatchStmt):
            return {arg.variable.name for arg in function.arguments}
    return names


def _all_names(node: FuncDef | Decorator | OverloadedFuncDef | ClassDef) -> set[str]:
    body: list[Statement]
    if isinstance(node, Decorator):
        body = [node.func, *(ExpressionStmt(d) for d in node.decorators)]
    elif isinstance(node, OverloadedFuncDef):
        body = [*node.items]
    elif isinstance(node, ClassDef):
        body = node.defs.body
    else:
        body = node.body.body
    names: set[str] = set()
    for stmt in walk(body):
        if isinstance(stmt, (FuncDef, Decorator, OverloadedFuncDef, ClassDef)) and stmt is not node:
            names |= _all_names(stmt)
        for expr in _expressions(stmt):
            names.update(ref.name for ref in all_name_and_member_expressions(expr)[0])
    return names
