"""Sizes whose remainder the code tests: there division is not assumed exact (SHAPES.md §6).

The checker takes every size a model divides to be a multiple of its divisor: with `d`
divided by 2, `2 * (d // 2)` is `d`.  Code that tests the remainder of a size itself says
otherwise, and handles the other case:

    half = dim // 2
    emb = torch.cat([emb.cos(), emb.sin()], dim=-1)    # 2 * (dim // 2) wide
    if dim % 2:
        emb = F.pad(emb, (0, 1))                       # dim wide, for an odd dim

Under the rule, the padded width would be `dim + 1`, a shape torch never produces.  So in
a function that tests the remainder of a size (`dim % 2`, `divmod(h, 2)`, `dim & 1`, `half * 2 != dim`,
`dim - 2 * half`), or in any method
of a class one of whose methods does, a result whose size divides one of the symbols of that
size has that size unknown.  A test that only guards the division (`assert d % h == 0`,
`if d % h: raise ...`) confirms it, and changes nothing; one that requires a remainder
(`assert k % 2 == 1`, `if k % 2 == 0: raise ...`: an odd kernel) tests it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from mypy.checker import TypeChecker
from mypy.nodes import (
    AssertStmt,
    AssignmentStmt,
    CallExpr,
    ComparisonExpr,
    ConditionalExpr,
    Expression,
    ExpressionStmt,
    ForStmt,
    FuncItem,
    IfStmt,
    IndexExpr,
    IntExpr,
    ListExpr,
    MemberExpr,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    ReturnStmt,
    TupleExpr,
    TypeInfo,
    UnaryExpr,
    Var,
    WhileStmt,
)
from mypy.type_visitor import TypeTranslator
from mypy.types import Instance, LiteralType, TupleType, Type, TypeAliasType, UnionType, get_proper_type

from tyr._symbolic import Expr, FloorDiv
from tyr.mypy_plugin import _names
from tyr.mypy_plugin._statements import PerNode, methods, raises, walk
from tyr.mypy_plugin._types import Lookup, Scope
from tyr.shape_rules import Size


_Result = TypeVar("_Result")


class Remainders:
    """For each function, the expressions whose remainder it tests (found once, when first needed)."""

    def __init__(self) -> None:
        self._tested: PerNode[FuncItem, list[Expression]] = PerNode(_tested_in)

    def clear(self) -> None:
        self._tested.clear()

    def inexact(self, api: object, result: _Result, lookup: Lookup) -> _Result:
        """`result` (a type whose sizes divide: `divides`), with each size that divides a symbol whose
        remainder the code tests unknown."""
        if not isinstance(api, TypeChecker):
            return result
        function = api.scope.current_function()
        if function is None:
            return result
        tested = list(self._tested(function))
        cls = api.scope.enclosing_class(function)
        if cls is not None:
            for method in methods(cls.defn):
                if method is not function:
                    tested += self._tested(method)
        if not tested:
            return result
        scope = Scope(lookup)
        symbols: set[str] = set()
        for expr in tested:
            typ = _type_of(api, expr, cls)
            size = scope.size_of(typ) if typ is not None else None
            if size is not None:
                symbols |= size.symbols
        if not symbols:
            return result
        divided = frozenset(symbols)
        return map_sizes(result, scope, lambda size: None if _divides_symbol(size, divided) else size)


def _tested_in(function: FuncItem) -> list[Expression]:
    """The names and `self.x` attributes whose remainder the function tests (`dim % 2`, `divmod(h, 2)`),
    but for tests that require a division to be exact (`assert d % h == 0`, `if d % h: raise ...`)."""
    tested: list[Expression] = []
    for stmt in walk(function.body.body):
        if isinstance(stmt, IfStmt):
            for test, body in zip(stmt.expr, stmt.body):
                if raises(body):
                    _find_in_guard(test, False, tested)  # what holds after it is the test's negation
                else:
                    _find(test, tested)
        elif isinstance(stmt, AssertStmt):
            _find_in_guard(stmt.expr, True, tested)
        elif isinstance(stmt, (AssignmentStmt, OperatorAssignmentStmt)):
            _find(stmt.rvalue, tested)
        elif isinstance(stmt, (ExpressionStmt, WhileStmt, ForStmt, ReturnStmt)) and stmt.expr is not None:
            _find(stmt.expr, tested)
    return tested


def _find_in_guard(test: Expression, holds: bool, tested: list[Expression]) -> None:
    """The remainders a guard tests (`test`, or its negation where `holds` is False, is true after it),
    but for those it requires to be 0: `assert d % h == 0` confirms the rule, where
    `assert k % 2 == 1` (an odd kernel) says the division of `k` by 2 is not exact."""
    if isinstance(test, UnaryExpr) and test.op == "not":
        _find_in_guard(test.expr, not holds, tested)
    elif isinstance(test, OpExpr) and test.op in ("and", "or") and holds == (test.op == "and"):
        _find_in_guard(test.left, holds, tested)  # each part holds on its own
        _find_in_guard(test.right, holds, tested)
    elif _is_remainder(test):
        assert isinstance(test, OpExpr)
        _remainder_is_zero(test, not holds, tested)
    elif isinstance(test, ComparisonExpr) and len(test.operators) == 1 and test.operators[0] in ("==", "!="):
        left, right = test.operands
        remainder, other = (left, right) if _is_remainder(left) else (right, left)
        if _is_remainder(remainder) and isinstance(other, IntExpr) and other.value == 0:
            assert isinstance(remainder, OpExpr)
            _remainder_is_zero(remainder, holds == (test.operators[0] == "=="), tested)
        else:
            _find(test, tested)
    else:
        _find(test, tested)


def _is_remainder(expr: Expression) -> bool:
    return isinstance(expr, OpExpr) and expr.op in ("%", "&")


def _remainder_is_zero(remainder: OpExpr, zero: bool, tested: list[Expression]) -> None:
    """A guard says `remainder` is 0 (`zero`) or not: the first keeps the division of a size exact."""
    if not zero or not isinstance(remainder.left, (NameExpr, MemberExpr)):
        _find(remainder, tested)  # (`(k - 1) % 2 == 0` says `k` is odd: `k // 2` is not exact either)
    else:
        _find(remainder.right, tested)


def _find(expr: Expression, tested: list[Expression]) -> None:
    if isinstance(expr, OpExpr):
        if expr.op in ("%", "&"):
            tested.extend(_sizes_in(expr.left))  # `dim % 2`, `dim & 1`, `(k - 1) % 2`
        elif expr.op == "-" and _multiple(expr.right) is not None:
            _note_multiple(expr.left, expr.right, tested)  # `dim - 2 * half`: what is left over
        _find(expr.left, tested)
        _find(expr.right, tested)
    elif isinstance(expr, CallExpr):
        if isinstance(expr.callee, NameExpr) and expr.callee.fullname == "builtins.divmod" and expr.args:
            tested.extend(_sizes_in(expr.args[0]))
        for arg in expr.args:
            _find(arg, tested)
    elif isinstance(expr, ComparisonExpr):
        for operand in expr.operands:
            _find(operand, tested)
        for left, right in zip(expr.operands, expr.operands[1:]):
            _note_multiple(left, right, tested)  # `half * 2 != dim`
            _note_multiple(right, left, tested)
    elif isinstance(expr, UnaryExpr):
        _find(expr.expr, tested)
    elif isinstance(expr, ConditionalExpr):
        for part in (expr.cond, expr.if_expr, expr.else_expr):
            _find(part, tested)
    elif isinstance(expr, (TupleExpr, ListExpr)):
        for item in expr.items:
            _find(item, tested)
    elif isinstance(expr, IndexExpr):
        _find(expr.index, tested)


def _sizes_in(expr: Expression) -> list[Expression]:
    """The names and attributes an arithmetic expression is made of (`k` in `k - 1`)."""
    if isinstance(expr, (NameExpr, MemberExpr)):
        return [expr]
    if isinstance(expr, OpExpr) and expr.op in ("+", "-", "*", "//"):
        return _sizes_in(expr.left) + _sizes_in(expr.right)
    if isinstance(expr, UnaryExpr) and expr.op == "-":
        return _sizes_in(expr.expr)
    return []


def _multiple(expr: Expression) -> list[Expression] | None:
    """The names multiplied in a product (`2 * half`, `half * 2`, `(dim // 2) * 2`); None for no product."""
    if not (isinstance(expr, OpExpr) and expr.op == "*"):
        return None
    names: list[Expression] = []
    for factor in (expr.left, expr.right):
        while isinstance(factor, OpExpr) and factor.op == "//":
            factor = factor.left
        if isinstance(factor, (NameExpr, MemberExpr)):
            names.append(factor)
    return names


def _note_multiple(whole: Expression, product: Expression, tested: list[Expression]) -> None:
    """A size compared with (or less) a multiple, `dim` and `half` in `half * 2 != dim`: a remainder test."""
    names = _multiple(product)
    if names and isinstance(whole, (NameExpr, MemberExpr)):
        tested.append(whole)
        tested.extend(names)


def _type_of(api: TypeChecker, expr: Expression, cls: TypeInfo | None) -> Type | None:
    """A tested expression's type: from the checker where it has typed it, else as declared (or
    inferred where it was assigned), for a name or an attribute of `self` (of `cls`)."""
    known = api.lookup_type_or_none(expr)
    if known is not None:
        return known
    if isinstance(expr, NameExpr) and isinstance(expr.node, Var):
        return expr.node.type
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr) and cls is not None:
        symbol = cls.get(expr.name)
        if symbol is not None and isinstance(symbol.node, Var):
            return symbol.node.type
    return None


def divides(t: Type) -> bool:
    """Whether a hook's result holds a size with a division (cheap: most results have none)."""
    p = get_proper_type(t)
    if isinstance(p, Instance):
        if p.type.fullname == _names.DIM_EXPR:
            template = get_proper_type(p.args[0]) if p.args else None
            return isinstance(template, LiteralType) and "//" in str(template.value)
        return any(divides(a) for a in p.args)
    if isinstance(p, (TupleType, UnionType)):
        return any(divides(item) for item in p.items)
    return False


def _divides_symbol(size: Expr, symbols: frozenset[str]) -> bool:
    """Whether a division in `size` divides one of `symbols` (`D//2`, `(D + 1)//H` for `D`)."""
    return any(isinstance(atom, FloorDiv) and atom.num.symbols & symbols for mono, _ in size.terms for atom in mono)


def map_sizes(result: _Result, scope: Scope, change: Callable[[Expr], Size]) -> _Result:
    """`result` with each size that has a division (a dim `DimExpr`, a `Dim` value) replaced by
    `change(size)`: another size, or None for unknown."""
    if not isinstance(result, Type):
        return result
    translated = result.accept(_SizeMap(scope, change))
    return translated if isinstance(translated, type(result)) else result


class _SizeMap(TypeTranslator):
    def __init__(self, scope: Scope, change: Callable[[Expr], Size]) -> None:
        super().__init__()
        self.scope = scope
        self.change = change

    def visit_instance(self, t: Instance, /) -> Type:
        fullname = t.type.fullname
        if fullname == _names.DIM_EXPR:
            return self._changed(t, self.scope.size_of(t), self.scope.size_type)
        if fullname == _names.DIM and len(t.args) == 1:
            return self._changed(t, self.scope.size_of(t.args[0]), self.scope.dim_value_type)
        return super().visit_instance(t)

    def _changed(self, t: Instance, size: Size, as_type: Callable[[Size], Type]) -> Type:
        """`t`, unless its size divides and `change` gives another: the type `as_type` gives that."""
        if size is None or not size.has_division:
            return t
        changed = self.change(size)
        return t if changed is size else as_type(changed)

    def visit_type_alias_type(self, t: TypeAliasType, /) -> Type:
        return t if t.is_recursive else get_proper_type(t).accept(self)
