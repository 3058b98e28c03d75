"""Branches guarded by a test of a size: there the size is what the test says.

Symbols are rigid (SHAPES.md §6): `Bc` is not 1, so expanding a `Tensor[Bc, L, D]` to `B`
rows is an error.  Code that tests the size first handles exactly the case it can:

    if context.shape[0] == 1:
        context = context.expand(b, -1, -1)        # here Bc is 1

mypy narrows no type by such a test.  So where a shape rule fails inside a branch that a
test of sizes guards (`if n == 1:`, the `else` of `if n != 1:`, an `and` of them, the
branch of a conditional value, a flag the class set once from such a test), or after an
`assert` of one (or `torch._assert`, or an `if` of its negation that raises or returns), the rule
is tried again with a tested symbol replaced by what the test equates it with (`L` by `N` for
`L + 1 == N + 1`; sizes tuples item by item, `h.shape[-2:] == skip.shape[-2:]`); if it holds then, the call is no
error.  Its result keeps the rank the rule gives there, with sizes unknown: they hold there
only (`H` is `H//S` where `S` is 1), and mypy, joining the paths after a branch, would hold
one spelling against the other.  Found only on the way to an error: code that checks clean
pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Callable

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    Block,
    CallExpr,
    ComparisonExpr,
    ConditionalExpr,
    Context,
    Expression,
    ExpressionStmt,
    IfStmt,
    MemberExpr,
    NameExpr,
    OpExpr,
    ReturnStmt,
    Statement,
    TypeInfo,
)
from mypy.types import TupleType, Type, get_proper_type

from tyr._symbolic import Expr
from tyr.mypy_plugin._statements import inner_blocks, leaves, methods, self_assignments, walk
from tyr.mypy_plugin._types import NotATensor, NotKnown, Scope
from tyr.shape_rules.core import ShapeRuleError, rank


def narrowing(api: object, context: Context, scope: Scope) -> dict[str, Expr]:
    """What the tests guarding `context` (a call in the current function) equate its symbols with."""
    if not isinstance(api, TypeChecker):
        return {}
    function = api.scope.current_function()
    if function is None:
        return {}
    cls = api.scope.enclosing_class(function)
    found: dict[str, Expr] = {}
    for test, holds in [*_guarding(function.body.body, context), *_asserted(function.body.body, context)]:
        for left, right in _equalities(_as_stated(test, cls), holds):
            _equate(api, scope, left, right, found)
    return found


def _as_stated(test: Expression, cls: TypeInfo | None) -> Expression:
    """A test of a flag the class sets once from a test of sizes (`self.use_res = stride == 1 and inp == oup`,
    torchvision's inverted residual): that test."""
    if not (isinstance(test, MemberExpr) and isinstance(test.expr, NameExpr) and cls is not None):
        return test
    if self_assignments(cls.defn, test.name) != 1:
        return test
    for method in methods(cls.defn):
        for stmt in walk(method.body.body):
            if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1:
                target = stmt.lvalues[0]
                if isinstance(target, MemberExpr) and target.name == test.name and isinstance(target.expr, NameExpr):
                    return stmt.rvalue
    return test


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


def _asserted(statements: list[Statement], context: Context) -> list[tuple[Expression, bool]]:
    """The tests that hold from their statement on, before `context` in a block that holds it (or one around
    that): `assert x.shape[1] == c`, and `if x.shape[1] != c: raise ...` (its test fails after it)."""
    tests: list[tuple[Expression, bool]] = []
    for stmt in statements:
        if stmt.line >= context.line:
            break
        if isinstance(stmt, AssertStmt):
            tests.append((stmt.expr, True))
        elif isinstance(stmt, IfStmt) and len(stmt.expr) == 1 and stmt.else_body is None and leaves(stmt.body[0]):
            tests.append((stmt.expr[0], False))
        elif isinstance(stmt, ExpressionStmt) and _is_assert_call(stmt.expr):
            assert isinstance(stmt.expr, CallExpr)
            tests.append((stmt.expr.args[0], True))
    for stmt in statements:
        for block in inner_blocks(stmt):
            if _holds(block, context):
                tests += _asserted(block.body, context)
    return tests


def _is_assert_call(expr: Expression) -> bool:
    """`torch._assert(test, message)`, and timm's `_assert`: an assert that tracing keeps."""
    if not (isinstance(expr, CallExpr) and expr.args):
        return False
    callee = expr.callee
    name = callee.name if isinstance(callee, (NameExpr, MemberExpr)) else None
    return name == "_assert"


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
    """Note what the test `left == right` makes one of its symbols (`L` is `N` for `L + 1 == N + 1`), for a
    pair of sizes or, item by item, of size tuples (`h.shape[-2:] == skip.shape[-2:]`)."""
    types = [api.lookup_type_or_none(side) for side in (left, right)]
    if types[0] is None or types[1] is None:
        return
    a, b = get_proper_type(types[0]), get_proper_type(types[1])
    pairs = list(zip(a.items, b.items)) if isinstance(a, TupleType) and isinstance(b, TupleType) else [(a, b)]
    if isinstance(a, TupleType) and isinstance(b, TupleType) and len(a.items) != len(b.items):
        return
    for one, other in pairs:
        x, y = scope.size_of(one), scope.size_of(other)
        if x is None or y is None:
            continue
        solved = (x - y).isolate()
        if solved is not None and solved[0] not in found:
            found[solved[0]] = solved[1]


def retried(api: object, context: Context, scope: Scope, compute: Callable[[], Type]) -> Type | None:
    """`compute()` (a rule that just failed) again with the sizes the tests guarding `context` equate, its
    result `unsized`; None where nothing guards the call or the rule fails all the same."""
    narrowed = narrowing(api, context, scope)
    if not narrowed:
        return None
    scope.narrowed = narrowed
    try:
        result = compute()
    except (NotKnown, ShapeRuleError):
        return None
    finally:
        scope.narrowed = {}
    return unsized(result, scope)


def unsized(result: Type, scope: Scope) -> Type:
    """A guarded call's result: each tensor in it of the rank the rule gave, its sizes unknown."""
    p = get_proper_type(result)
    if isinstance(p, TupleType):
        return p.copy_modified(items=[unsized(item, scope) for item in p.items])
    try:
        shape = scope.tensor_shape(p)
    except NotATensor:
        return result
    return scope.tensor_type(None if shape is None or rank(shape) is None else (None,) * len(shape))
