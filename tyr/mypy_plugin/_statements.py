"""Walking a function's or class's statements, for the few questions a hook asks of the code around it."""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    Block,
    ClassDef,
    Decorator,
    ForStmt,
    FuncDef,
    IfStmt,
    MemberExpr,
    NameExpr,
    OverloadedFuncDef,
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
        if isinstance(stmt, Block):
            yield from walk(stmt.body)
        elif isinstance(stmt, IfStmt):
            for block in (*stmt.body, stmt.else_body):
                if block is not None:
                    yield from walk(block.body)
        elif isinstance(stmt, (ForStmt, WhileStmt)):
            for block in (stmt.body, stmt.else_body):
                if block is not None:
                    yield from walk(block.body)
        elif isinstance(stmt, WithStmt):
            yield from walk(stmt.body.body)
        elif isinstance(stmt, TryStmt):
            for block in (stmt.body, *stmt.handlers, stmt.else_body, stmt.finally_body):
                if block is not None:
                    yield from walk(block.body)


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
