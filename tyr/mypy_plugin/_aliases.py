"""Which locals may hold the same tensor object: what an in-place change of shape changes too.

`y = x` makes `y` the very tensor `x` is, and so do `y = x.contiguous()`, `y = x.unsqueeze_(0)` and
`y = helper(x)` (a function may return its argument).  After `x.t_()` every such name holds the
transposed tensor, whatever its type said before.  Names alias when an assignment of the function
(anywhere in it: the order of the statements is not followed, and a loop may run the later one
first) gives one a value that may be the other's object; aliasing is taken to be transitive, which
only ever widens the set.  Widening is safe: a name in the set reads as a tensor of unknown shape
after the change, never the shape it had.
"""

from __future__ import annotations

from collections.abc import Iterator

from mypy.nodes import (
    AssignmentExpr,
    AssertTypeExpr,
    AssignmentStmt,
    CallExpr,
    CastExpr,
    ConditionalExpr,
    DictExpr,
    Expression,
    ForStmt,
    FuncItem,
    GeneratorExpr,
    IndexExpr,
    ListComprehension,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    OpExpr,
    RefExpr,
    SetComprehension,
    SetExpr,
    StarExpr,
    TupleExpr,
    UnaryExpr,
    Var,
)
from mypy.types import Instance, get_proper_type

from tyr.mypy_plugin import _names
from tyr.mypy_plugin._statements import walk

SAME_OBJECT_METHODS = frozenset(
    {"contiguous", "to", "type", "type_as", "float", "double", "half", "bfloat16", "int", "long", "short",
     "bool", "byte", "char", "cfloat", "cdouble", "cpu", "cuda", "flatten", "ravel", "coalesce", "requires_grad_"}
)
"""Tensor methods that may return the tensor itself (`x.float()` of a float tensor, `x.flatten()` of a
1-d one), besides the in-place ones (`x.add_(1)`), which always do."""

SAME_OBJECT_FUNCTIONS = ("atleast_", "dropout", "as_tensor", "asarray", "positive")
"""Parts of the names of torch functions that may return their argument (`F.dropout` outside training,
`torch.atleast_2d` of a matrix, `torch.as_tensor` of a tensor)."""


class Aliases:
    """For one function (or module) body: the locals each local may share its tensor with.  Made anew
    for each change (they are rare): a method's result is a new tensor only where its object is
    known to be a tensor, which the locals the checker has typed by then tell best."""

    def __init__(self, owner: FuncItem | MypyFile) -> None:
        self._parent: dict[Var, Var] = {}
        self.names: dict[Var, NameExpr] = {}  # a name that refers to each local, for the binder
        statements = owner.body.body if isinstance(owner, FuncItem) else owner.defs
        for stmt in walk(statements):
            if isinstance(stmt, AssignmentStmt):
                for target in stmt.lvalues:
                    self._pair(target, stmt.rvalue)
            elif isinstance(stmt, ForStmt):  # `for t in (q, k): t.unsqueeze_(0)`
                self._pair(stmt.index, stmt.expr, each=True)

    def of(self, var: Var) -> list[NameExpr]:
        """Names of the other locals that may hold `var`'s tensor."""
        root = self._find(var)
        return [name for other, name in self.names.items() if other is not var and self._find(other) is root]

    def _pair(self, target: Expression, value: Expression, each: bool = False) -> None:
        if isinstance(target, (TupleExpr, ListExpr)):
            if isinstance(value, (TupleExpr, ListExpr)) and len(value.items) == len(target.items) and not each:
                for t, v in zip(target.items, value.items):
                    self._pair(t, v)
            else:  # `a, b = pair`: each may be any of what the value holds
                for t in target.items:
                    self._pair(t.expr if isinstance(t, StarExpr) else t, value, each=True)
        elif isinstance(target, NameExpr) and isinstance(target.node, Var):
            var = target.node
            self.names.setdefault(var, target)
            for source in _objects(value, each):
                assert isinstance(source.node, Var)
                self.names.setdefault(source.node, source)
                self._union(var, source.node)

    def _find(self, var: Var) -> Var:
        while var in self._parent:
            var = self._parent[var]
        return var

    def _union(self, a: Var, b: Var) -> None:
        ra, rb = self._find(a), self._find(b)
        if ra is not rb:
            self._parent[ra] = rb


def _objects(value: Expression, each: bool = False) -> Iterator[NameExpr]:
    """The names of the locals whose tensor `value` may be (with `each`, what an item of it may be)."""
    if isinstance(value, NameExpr):
        var = value.node
        if isinstance(var, Var) and not var.is_self and not (each and _is_tensor_var(var)):
            yield value  # (an item of a tensor is a new tensor; one of a list may be what it was built from)
    elif isinstance(value, ConditionalExpr):
        yield from _objects(value.if_expr, each)
        yield from _objects(value.else_expr, each)
    elif isinstance(value, OpExpr):
        if value.op in ("and", "or"):
            yield from _objects(value.left, each)
            yield from _objects(value.right, each)
    elif isinstance(value, UnaryExpr):
        if value.op == "+":  # `+x` is `torch.positive(x)`: `x` itself
            yield from _objects(value.expr, each)
    elif isinstance(value, (AssignmentExpr, CastExpr, AssertTypeExpr)):
        yield from _objects(value.value if isinstance(value, AssignmentExpr) else value.expr, each)
    elif isinstance(value, (ListExpr, TupleExpr, SetExpr)):
        for item in value.items:
            yield from _objects(item.expr if isinstance(item, StarExpr) else item)
    elif isinstance(value, DictExpr):
        for _, item in value.items:
            yield from _objects(item)
    elif isinstance(value, (ListComprehension, SetComprehension, GeneratorExpr)):
        generator = value if isinstance(value, GeneratorExpr) else value.generator
        yield from _objects(generator.left_expr)
        for sequence in generator.sequences:
            yield from _objects(sequence, each=True)
    elif isinstance(value, IndexExpr):
        yield from _objects(value.base, each=True)
    elif isinstance(value, CallExpr):
        yield from _returned(value)
    # any other value (`x.T`, `x + y`, a literal) is a new object


def _returned(call: CallExpr) -> Iterator[NameExpr]:
    """The names of the locals whose tensor a call may return."""
    callee = call.callee
    if isinstance(callee, MemberExpr) and not _is_module(callee.expr):
        receiver = list(_objects(callee.expr))
        if receiver and all(isinstance(n.node, Var) and _is_tensor_var(n.node) for n in receiver):
            # a method of the tensor gives a new one, but for the few that may give the tensor back
            if _may_return_self(callee.name):
                yield from receiver
            return
        yield from _objects(callee.expr, each=True)  # `xs.pop()`
    elif isinstance(callee, RefExpr) and callee.fullname.startswith("torch."):
        name = callee.fullname.rsplit(".", 1)[-1]
        if callee.fullname.startswith(f"{_names.TENSOR}.") and _may_return_self(name):
            yield from _objects(call.args[0]) if call.args else iter(())  # `torch.Tensor.t_(x)`
            return
        if not any(part in name for part in SAME_OBJECT_FUNCTIONS):
            return  # a torch function's result is a new tensor
    for arg in call.args:  # any other function, or a module, may give an argument back
        yield from _objects(arg)


def _may_return_self(method: str) -> bool:
    return method in SAME_OBJECT_METHODS or method.endswith("_") and not method.startswith("__")


def _is_module(expr: Expression) -> bool:
    """`torch` in `torch.cat`, `torch.nn.functional` in `torch.nn.functional.pad`."""
    return isinstance(expr, RefExpr) and isinstance(expr.node, MypyFile)


def _is_tensor_var(var: Var) -> bool:
    t = get_proper_type(var.type) if var.type is not None else None
    return isinstance(t, Instance) and t.type.has_base(_names.TENSOR)

