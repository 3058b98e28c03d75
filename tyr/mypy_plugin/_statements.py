"""Walking a function's or class's statements, for the few questions a hook asks of the code around it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, Generic, NamedTuple, TypeVar

from mypy.nodes import (
    Block,
    BreakStmt,
    ClassDef,
    ContinueStmt,
    Decorator,
    ForStmt,
    FuncDef,
    IfStmt,
    MemberExpr,
    NameExpr,
    OverloadedFuncDef,
    RaiseStmt,
    ReturnStmt,
    Statement,
    TryStmt,
    WhileStmt,
    WithStmt,
    AssignmentStmt,
    OperatorAssignmentStmt,
    Node,
    TypeInfo,
)

_Node = TypeVar("_Node", bound=Node)
_Answer = TypeVar("_Answer")


class PerNode(Generic[_Node, _Answer]):
    """`answer(node)` for each node (a function, a file) asked about, computed once.  Held with the node
    itself: an id alone could come back for another node once mypy frees the first."""

    def __init__(self, answer: Callable[[_Node], _Answer]) -> None:
        self._answer = answer
        self._known: dict[int, tuple[_Node, _Answer]] = {}

    def __call__(self, node: _Node) -> _Answer:
        known = self._known.get(id(node))
        if known is None or known[0] is not node:
            known = self._known[id(node)] = (node, self._answer(node))
        return known[1]

    def clear(self) -> None:
        self._known.clear()


def walk(statements: list[Statement]) -> list[Statement]:
    """Every statement, nested blocks included (not the bodies of nested functions or classes), in order."""
    found: list[Statement] = []
    _walk(statements, found)
    return found


def _walk(statements: list[Statement], found: list[Statement]) -> None:
    for stmt in statements:
        found.append(stmt)
        for block in inner_blocks(stmt):
            _walk(block.body, found)


def every_statement(statements: list[Statement]) -> Iterator[Statement]:
    """Every statement, in the bodies of functions (nested, decorated, overloaded) and classes too
    (statements only: no expression is visited)."""
    for stmt in walk(statements):
        yield stmt
        if isinstance(stmt, FuncDef):
            yield from every_statement(stmt.body.body)
        elif isinstance(stmt, Decorator):
            yield from every_statement([stmt.func])
        elif isinstance(stmt, OverloadedFuncDef):
            yield from every_statement([*stmt.items, *([stmt.impl] if stmt.impl is not None else [])])
        elif isinstance(stmt, ClassDef):
            yield from every_statement(stmt.defs.body)


class Placed(NamedTuple):
    """A statement, and where it stands in the flow of its function's body."""

    stmt: Statement
    jumps_after: bool  # a `return`, `raise`, `break` or `continue` later in its own block always follows it
    conditional: bool  # in a branch, a loop or a `try` (a body runs its own statements and its `with` blocks')


def placed(statements: list[Statement]) -> list[Placed]:
    """Every statement as `walk` gives them, each with its place in the flow."""
    found: list[Placed] = []
    _place(statements, False, found)
    return found


def _place(statements: list[Statement], conditional: bool, found: list[Placed]) -> None:
    last_jump = -1
    for i, stmt in enumerate(statements):
        if isinstance(stmt, _JUMPS):
            last_jump = i
    for i, stmt in enumerate(statements):
        found.append(Placed(stmt, i < last_jump, conditional))
        for block in inner_blocks(stmt):
            _place(block.body, conditional or not isinstance(stmt, WithStmt), found)


_JUMPS = (ReturnStmt, RaiseStmt, BreakStmt, ContinueStmt)


def raises(block: Block) -> bool:
    """Whether a block ends in a `raise` (`if d % h: raise ...`: its test holds nowhere after it)."""
    return bool(block.body) and isinstance(block.body[-1], RaiseStmt)


def leaves(block: Block) -> bool:
    """Whether a block ends by leaving its own: a `raise`, a `return`, a `continue` or a `break`."""
    return bool(block.body) and isinstance(block.body[-1], _JUMPS)


def inner_blocks(stmt: Statement) -> list[Block]:
    """The blocks directly in a statement: an `if`'s branches, a loop's body and `else`, a `try`'s parts."""
    blocks = _BLOCKS.get(type(stmt))  # by exact class: most statements have none, and a dict says so at once
    return [b for b in blocks(stmt) if b is not None] if blocks is not None else []


_BLOCKS: dict[type[Statement], Callable[[Any], tuple[Block | None, ...]]] = {
    Block: lambda s: (s,),
    IfStmt: lambda s: (*s.body, s.else_body),
    ForStmt: lambda s: (s.body, s.else_body),
    WhileStmt: lambda s: (s.body, s.else_body),
    WithStmt: lambda s: (s.body,),
    TryStmt: lambda s: (s.body, *s.handlers, s.else_body, s.finally_body),
}


def methods(cls: ClassDef) -> Iterator[FuncDef]:
    for stmt in cls.defs.body:
        if isinstance(stmt, FuncDef):
            yield stmt
        elif isinstance(stmt, Decorator):
            yield stmt.func
        elif isinstance(stmt, OverloadedFuncDef):
            for item in stmt.items:
                yield item.func if isinstance(item, Decorator) else item


def assigned_again(info: TypeInfo, attribute: str) -> bool:
    """Whether the methods of a class and of its bases assign `self.<attribute>` in more than one place."""
    return sum(self_assignments(base.defn, attribute) for base in info.mro[:-1]) > 1


def self_assignments(cls: ClassDef, attribute: str) -> int:
    """How many statements of the class's methods assign `self.<attribute>` (`=` or an augmented `+=`)."""
    count = 0
    for method in methods(cls):
        if not method.arguments:
            continue
        self_name = method.arguments[0].variable.name
        for stmt in walk(method.body.body):
            if isinstance(stmt, AssignmentStmt):
                targets = stmt.lvalues
            elif isinstance(stmt, OperatorAssignmentStmt):
                targets = [stmt.lvalue]
            else:
                continue
            count += sum(
                1
                for target in targets
                if isinstance(target, MemberExpr)
                and target.name == attribute
                and isinstance(target.expr, NameExpr)
                and target.expr.name == self_name
            )
    return count
