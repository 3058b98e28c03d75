"""Whether an index tensor holds integers or bools, read from the expression that computes it.

Tensor types carry no dtype, but indexing depends on it: `x[idx]` with integers gathers
rows, `x[mask]` with bools picks elements.  Where the expression says which
(`x[x > 0]`, `x[scores.argmax(-1)]`, `x[torch.arange(n)]`, `x[mask.bool()]`) the rule gets
the dtype.  A local variable is read through its assignments in the function (`mask =
labels != -100`; `values, indices = x.topk(k)`), when every one of them agrees; anything
else (a parameter, a loop variable) is read both ways by the rule, and gives an unknown
shape where the two readings disagree.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from mypy.nodes import (
    AssignmentStmt,
    Block,
    CallExpr,
    ComparisonExpr,
    Expression,
    ForStmt,
    FuncItem,
    IfStmt,
    IndexExpr,
    IntExpr,
    ListExpr,
    MatchStmt,
    MemberExpr,
    MypyFile,
    NameExpr,
    OperatorAssignmentStmt,
    OpExpr,
    RefExpr,
    StarExpr,
    Statement,
    TryStmt,
    TupleExpr,
    UnaryExpr,
    Var,
    WhileStmt,
    WithStmt,
)

from tyr.mypy_plugin._statements import PerNode

IndexDtype = Literal["int", "bool"] | None

IsInt = Callable[[Expression], bool]
"""Whether an expression is a Python int (a literal, an `int` or `Dim` variable): from the checker's types."""

Binding = tuple[Expression, "int | None"]
"""A value assigned to a variable: the right-hand side, and the position in it when unpacked."""

Bindings = Callable[[NameExpr], "list[Binding] | None"]
"""Every value a local variable is assigned (None when one is not an assignment that can be read)."""

_MAX_DEPTH = 4

_BOOL = frozenset(
    {
        "bool",
        "byte",  # uint8 tensors index as masks
        "eq",
        "ne",
        "lt",
        "le",
        "gt",
        "ge",
        "greater",
        "greater_equal",
        "less",
        "less_equal",
        "not_equal",
        "isnan",
        "isinf",
        "isfinite",
        "isneginf",
        "isposinf",
        "isreal",
        "isclose",
        "isin",
        "signbit",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_not",
    }
)
_INT = frozenset(
    {
        "long",
        "int",
        "short",
        "argmax",
        "argmin",
        "argsort",
        "argwhere",
        "nonzero",
        "multinomial",
        "randint",
        "randint_like",
        "randperm",
        "bucketize",
        "searchsorted",
        "tril_indices",
        "triu_indices",
    }
)
_SAME = frozenset(
    {
        "view",
        "reshape",
        "flatten",
        "unflatten",
        "unsqueeze",
        "squeeze",
        "expand",
        "expand_as",
        "broadcast_to",
        "transpose",
        "swapaxes",
        "permute",
        "t",
        "contiguous",
        "clone",
        "detach",
        "repeat",
        "repeat_interleave",
        "flip",
        "roll",
        "tril",
        "triu",
        "cpu",
        "cuda",
        "narrow",
        "select",
        "index_select",
        "gather",
        "masked_select",
        "movedim",
        "diagonal",
    }
)
_PAIRS = frozenset({"topk", "sort", "max", "min", "kthvalue", "median", "nanmedian", "mode", "cummax", "cummin"})
"""Methods returning `(values, indices)`: their `[1]` and `.indices` are integers."""

_DTYPES: dict[str, IndexDtype] = {
    "bool": "bool",
    "uint8": "bool",
    "long": "int",
    "int64": "int",
    "int": "int",
    "int32": "int",
    "short": "int",
    "int16": "int",
}


def index_dtype(expr: Expression, is_int: IsInt, bindings: Bindings | None = None, depth: int = 0) -> IndexDtype:
    """`"int"` or `"bool"` when the expression evidently computes such a tensor, else None."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, NameExpr):
        found = bindings(expr) if bindings is not None else None
        if not found:
            return None
        kinds = {_unpacked(value, pos, is_int, bindings, depth + 1) for value, pos in found}
        return kinds.pop() if len(kinds) == 1 else None
    if isinstance(expr, ComparisonExpr):
        return "bool"
    if isinstance(expr, UnaryExpr) and expr.op in ("~", "-"):
        inner = index_dtype(expr.expr, is_int, bindings, depth + 1)
        return inner if expr.op == "~" or inner == "int" else None
    if isinstance(expr, OpExpr):
        left, right = index_dtype(expr.left, is_int, bindings, depth + 1), index_dtype(expr.right, is_int, bindings, depth + 1)
        if expr.op in ("&", "|", "^"):
            return left if left == right else None
        if expr.op in ("+", "-", "*", "//", "%"):
            ints = [d == "int" or is_int(e) for d, e in ((left, expr.left), (right, expr.right))]
            return "int" if all(ints) and "int" in (left, right) else None
        return None
    if isinstance(expr, MemberExpr):
        if expr.name == "indices":
            return "int"
        return index_dtype(expr.expr, is_int, bindings, depth + 1) if expr.name in ("T", "mT", "data") else None
    if isinstance(expr, IndexExpr):
        base = expr.base
        if isinstance(base, CallExpr) and _name(base.callee) in _PAIRS and isinstance(expr.index, IntExpr):
            return "int" if expr.index.value == 1 else None
        return index_dtype(base, is_int, bindings, depth + 1)
    if isinstance(expr, CallExpr):
        return _call_dtype(expr, is_int, bindings, depth + 1)
    return None


def _call_dtype(call: CallExpr, is_int: IsInt, bindings: Bindings | None, depth: int) -> IndexDtype:
    name = _name(call.callee)
    if name is None:
        return None
    for arg, arg_name in zip(call.args, call.arg_names):
        if arg_name == "dtype":
            return _dtype_value(arg)
    if name in ("to", "type"):
        # `.to(torch.long)`; `.to(device)` keeps the dtype, `.to(other)` takes other's: unknown
        if len(call.args) == 1:
            return _dtype_value(call.args[0])
        return None
    if name in _BOOL:
        return "bool"
    if name in _INT:
        return "int"
    if name in ("tensor", "as_tensor") and call.args and isinstance(call.args[0], (ListExpr, TupleExpr)):
        return _literal_dtype(call.args[0])
    if name == "arange":
        return "int" if call.args and all(map(is_int, call.args)) else None
    if name in _SAME:
        receiver = _receiver(call)
        return index_dtype(receiver, is_int, bindings, depth) if receiver is not None else None
    return None  # creation functions make floats unless a dtype says otherwise


def _receiver(call: CallExpr) -> Expression | None:
    """The tensor a method call acts on: `x` in `x.view(...)` and in `torch.tril(x)`."""
    callee = call.callee
    if isinstance(callee, MemberExpr) and not _is_module(callee.expr):
        return callee.expr
    return call.args[0] if call.args else None


def _is_module(expr: Expression) -> bool:
    return isinstance(expr, RefExpr) and isinstance(expr.node, MypyFile)


def _name(callee: Expression) -> str | None:
    if isinstance(callee, (MemberExpr, NameExpr)):
        return callee.name
    return None


def _dtype_value(expr: Expression) -> IndexDtype:
    """`torch.long`, `torch.bool`, ... as an index dtype (None for floats and what is not a dtype)."""
    if isinstance(expr, MemberExpr) and isinstance(expr.expr, NameExpr) and _is_module(expr.expr):
        return _DTYPES.get(expr.name)
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.bool":
        return "bool"
    if isinstance(expr, NameExpr) and expr.fullname == "builtins.int":
        return "int"
    return None


def _literal_dtype(items: ListExpr | TupleExpr) -> IndexDtype:
    """The dtype of `torch.tensor([...])` of int or bool literals (nested lists too)."""
    kinds: set[IndexDtype] = set()
    for item in items.items:
        if isinstance(item, (ListExpr, TupleExpr)):
            kinds.add(_literal_dtype(item))
        elif isinstance(item, NameExpr) and item.fullname in ("builtins.True", "builtins.False"):
            kinds.add("bool")
        elif _int_literal(item):
            kinds.add("int")
        else:
            return None
    return kinds.pop() if len(kinds) == 1 else None


def _int_literal(expr: Expression) -> bool:
    return isinstance(expr, IntExpr) or isinstance(expr, UnaryExpr) and expr.op == "-" and isinstance(expr.expr, IntExpr)


def _unpacked(value: Expression, pos: int | None, is_int: IsInt, bindings: Bindings | None, depth: int) -> IndexDtype:
    """The dtype of item `pos` of an assigned value (the whole value when `pos` is None)."""
    if pos is None:
        return index_dtype(value, is_int, bindings, depth)
    if isinstance(value, (TupleExpr, ListExpr)) and pos < len(value.items):
        return index_dtype(value.items[pos], is_int, bindings, depth)
    if isinstance(value, CallExpr) and _name(value.callee) in _PAIRS:
        return "int" if pos == 1 else None  # values, indices = x.topk(k)
    return None


def local_bindings(scope: FuncItem | MypyFile, var: Var) -> list[Binding] | None:
    """Every value assigned to `var` in a function's body (or a module's top level); None when `var` is
    a parameter or may be bound otherwise (a loop or `with` target, an augmented assignment, a `:=`)."""
    if isinstance(scope, FuncItem) and any(arg.variable is var for arg in scope.arguments):
        return None
    finder = _Bindings(var)
    finder.statements(scope.body.body if isinstance(scope, FuncItem) else scope.defs)
    if finder.opaque or HAS_WALRUS(scope):
        return None  # (a `:=` anywhere in an expression could bind it: not read)
    return finder.values


def _has_walrus(scope: FuncItem | MypyFile) -> bool:
    """Whether a `:=` appears anywhere in the function (or module), nested functions included.  (mypy's
    traversers cannot be subclassed here: the printed tree is searched, once per scope.)"""
    return "AssignmentExpr" in str(scope)


HAS_WALRUS: PerNode[FuncItem | MypyFile, bool] = PerNode(_has_walrus)
"""`_has_walrus`, once per function (cleared with each build's modules)."""


class _Bindings:
    """The assignments to one variable, found statement by statement (not inside nested functions)."""

    def __init__(self, var: Var) -> None:
        self.var = var
        self.values: list[Binding] = []
        self.opaque = False

    def _binds(self, target: Expression | None) -> bool:
        if isinstance(target, NameExpr):
            return target.node is self.var
        if isinstance(target, (TupleExpr, ListExpr)):
            return any(self._binds(item) for item in target.items)
        if isinstance(target, StarExpr):
            return self._binds(target.expr)
        return False

    def statements(self, body: list[Statement]) -> None:
        for statement in body:
            self.statement(statement)

    def statement(self, s: Statement) -> None:
        if isinstance(s, Block):
            self.statements(s.body)
        elif isinstance(s, AssignmentStmt):
            for target in s.lvalues:
                if isinstance(target, NameExpr) and target.node is self.var:
                    self.values.append((s.rvalue, None))
                elif isinstance(target, (TupleExpr, ListExpr)):
                    for i, item in enumerate(target.items):
                        if isinstance(item, NameExpr) and item.node is self.var:
                            self.values.append((s.rvalue, i))
                        elif self._binds(item):
                            self.opaque = True
        elif isinstance(s, OperatorAssignmentStmt):
            self.opaque |= self._binds(s.lvalue)
        elif isinstance(s, (IfStmt, WhileStmt)):
            self.statements([*s.body] if isinstance(s, IfStmt) else [s.body])
            if s.else_body is not None:
                self.statement(s.else_body)
        elif isinstance(s, ForStmt):
            self.opaque |= self._binds(s.index)
            self.statement(s.body)
            if s.else_body is not None:
                self.statement(s.else_body)
        elif isinstance(s, WithStmt):
            self.opaque |= any(self._binds(target) for target in s.target)
            self.statement(s.body)
        elif isinstance(s, TryStmt):
            self.opaque |= any(self._binds(v) for v in s.vars)
            self.statements([s.body, *s.handlers, *(b for b in (s.else_body, s.finally_body) if b is not None)])
        elif isinstance(s, MatchStmt):
            self.opaque = True  # patterns bind names
