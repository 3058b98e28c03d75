"""Walking a function's or class's statements, for the few questions a hook asks of the code around it."""

from __future__ import annotations

from collections.abc import Iterator

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
)


def walk(statements: list[Statement]) -> Iterator[Statement]:
    """Every statement, nested blocks included (not the bodies of nested functions or classes)."""
    for stmt in statements:
        yield stmt
        for block in _inner_blocks(stmt):
            yield from walk(block.body)


def jumps_after(statements: list[Statement]) -> set[int]:
    """The statements (by id) that a `return`, `raise`, `break` or `continue` later in their own block
    always follows: their path never reaches the end of the block."""
    found: set[int] = set()
    jumps = False
    for stmt in reversed(statements):
        if isinstance(stmt, (ReturnStmt, RaiseStmt, BreakStmt, ContinueStmt)):
            jumps = True
        elif jumps:
            found.add(id(stmt))
        for block in _inner_blocks(stmt):
            found |= jumps_after(block.body)
    return found


def unconditional(statements: list[Statement]) -> Iterator[Statement]:
    """The statements a body runs whenever it runs on: its own, and those of the `with` blocks among
    them (not of a branch, a loop or a `try`)."""
    for stmt in statements:
        yield stmt
        if isinstance(stmt, WithStmt):
            yield from unconditional(stmt.body.body)


def _inner_blocks(stmt: Statement) -> list[Block]:
    if isinstance(stmt, Block):
        return [stmt]
    if isinstance(stmt, IfStmt):
        return [b for b in (*stmt.body, stmt.else_body) if b is not None]
    if isinstance(stmt, (ForStmt, WhileStmt)):
        return [b for b in (stmt.body, stmt.else_body) if b is not None]
    if isinstance(stmt, WithStmt):
        return [stmt.body]
    if isinstance(stmt, TryStmt):
        return [b for b in (stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body) if b is not None]
    return []


def methods(cls: ClassDef) -> Iterator[FuncDef]:
    for stmt in cls.defs.body:
        if isinstance(stmt, FuncDef):
            yield stmt
        elif isinstance(stmt, Decorator):
            yield stmt.func
        elif isinstance(stmt, OverloadedFuncDef):
            for item in stmt.items:
                yield item.func if isinstance(item, Decorator) else item


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
