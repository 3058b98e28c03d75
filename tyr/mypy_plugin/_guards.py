"""Branches guarded by a test of a size: there the size is what the test says.

Symbols are rigid (SHAPES.md §6): `Bc` is not 1, so expanding a `Tensor[Bc, L, D]` to `B`
rows is an error.  Code that tests the size first handles exactly the case it can:

    if context.shape[0] == 1:
        context = context.expand(b, -1, -1)        # here Bc is 1

mypy narrows no type by such a test.  So where a shape rule fails inside a branch that a
test of sizes guards (`if n == 1:`, the `else` of `if n != 1:`, an `and` of them, or the
branch of a conditional value), the rule is tried again with each tested symbol replaced
by what the test equates it with; if it holds then, the call is no error, and its result is
the one the rule gives there.  Found only on the way to an error: code that checks clean
pays nothing for it.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssignmentStmt,
    Block,
    ComparisonExpr,
    ConditionalExpr,
    Context,
    Expression,
    IfStmt,
    OpExpr,
    ReturnStmt,
    Statement,
)

from tyr._symbolic import Expr
from tyr.mypy_plugin._statements import walk
from tyr.mypy_plugin._types import Scope


def narrowing(api: object, context: Context, scope: Scope) -> dict[str, Expr]:
    """What the tests guarding `context` (a call in the current function) equate its symbols with."""
    if not isinstance(api, TypeChecker):
        return {}
    function = api.scope.current_function()
    if function is None:
        return {}
    found: dict[str, Expr] = {}
    for test, holds in _guarding(function.body.body, context):
        for left, right in _equalities(test, holds):
            _equate(api, scope, left, right, found)
    return found


def _guarding(statements: list[Statement], context: Context) -> list[tuple[Expression, bool]]:
    """The tests of the branches that hold `context`, with whether each holds there (the `if` side) or fails
    (the `else` side): of `if` statements, and of conditional values assigned or returned."""
    tests: list[tuple[Expression, bool]] = []
    for stmt in walk(statements):
        if isinstance(stmt, IfStmt):
            for test, body in zip(stmt.expr, stmt.body):
                if _holds(body, context):
                    tests.append((test, True))
            if len(stmt.expr) == 1 and stmt.else_body is not None and _holds(stmt.else_body, context):
                tests.append((stmt.expr[0], False))
        value = stmt.rvalue if isinstance(stmt, AssignmentStmt) else stmt.expr if isinstance(stmt, ReturnStmt) else None
        if isinstance(value, ConditionalExpr):
            for branch, holds in ((value.if_expr, True), (value.else_expr, False)):
                if _within(context, branch):
                    tests.append((value.cond, holds))
    return tests


def _holds(block: Block, context: Context) -> bool:
    statements: list[Statement] = block.body
    if not statements:
        return False
    first, last = statements[0], statements[-1]
    end = last.end_line if last.end_line is not None else last.line
    return first.line <= context.line <= end


def _within(context: Context, expr: Expression) -> bool:
    """Whether `context` lies inside `expr`'s text."""
    if expr.end_line is None or expr.end_column is None:
        return False
    start, end, at = (expr.line, expr.column), (expr.end_line, expr.end_column), (context.line, context.column)
    return start <= at < end


def _equalities(test: Expression, holds: bool) -> list[tuple[Expression, Expression]]:
    """The pairs a test makes equal where it holds (`==`, `and`) or fails (`!=`, `or`)."""
    if isinstance(test, OpExpr) and test.op == ("and" if holds else "or"):
        return _equalities(test.left, holds) + _equalities(test.right, holds)
    if isinstance(test, ComparisonExpr) and test.operators == [("==" if holds else "!=")]:
        left, right = test.operands
        return [(left, right)]
    return []


def _equate(api: TypeChecker, scope: Scope, left: Expression, right: Expression, found: dict[str, Expr]) -> None:
    """Note `symbol = value` where one side is a size that is one symbol and the other a size without it."""
    sizes = []
    for side in (left, right):
        typ = api.lookup_type_or_none(side)
        sizes.append(scope.size_of(typ) if typ is not None else None)
    a, b = sizes
    for one, other in ((a, b), (b, a)):
        name = one.symbol_name if one is not None else None
        if name is not None and other is not None and name not in other.symbols and name not in found:
            found[name] = other
            return
