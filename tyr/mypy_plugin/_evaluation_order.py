"""`a, b = b, a`: the right-hand tuple is built before any name is bound, in mypy as in Python.

mypy checks an assignment of a tuple display to a tuple of names item by item, `a = b` and then
`b = a`, and its binder has narrowed `a` to `b`'s type by the time it reads `a` for `b`.  In
Python both items are read first.  Plain mypy shows it too (a swap of an `int` and a `str`
narrowed by `isinstance` gives two `str`), but with shapes it makes a wrong shape (`b` of a swap
gets its own shape back) and false alarms: `K, V = self.fc_k(K), self.fc_v(K)` would give
`fc_v` the projected `K`.

So, right after parsing, where an item of such a display reads a name (or `self.x`) that an
earlier target binds, the display is read as one value: `(b, a)[:]`, which mypy types as the
tuple of its items' types and then unpacks into the targets.
"""

from __future__ import annotations

from mypy.nodes import (
    AssignmentStmt,
    Expression,
    IndexExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    NameExpr,
    SliceExpr,
    StarExpr,
    TupleExpr,
)
from mypy.traverser import all_name_and_member_expressions

from tyr.mypy_plugin._statements import every_statement


def read_displays_first(file: MypyFile) -> None:
    """Make each tuple display that reads an earlier target of its own assignment one value."""
    for stmt in every_statement(file.defs):
        if isinstance(stmt, AssignmentStmt) and len(stmt.lvalues) == 1:
            if _reads_an_earlier_target(stmt.lvalues[0], stmt.rvalue):
                assert isinstance(stmt.rvalue, TupleExpr)
                whole = IndexExpr(stmt.rvalue, SliceExpr(None, None, None))
                # mypy reports an item that does not fit its target at the whole value's line: the first
                # item's, where it reports the first such item of a display written over several lines
                whole.set_line(stmt.rvalue.items[0])
                whole.index.set_line(stmt.rvalue.items[0])
                stmt.rvalue = whole


def _reads_an_earlier_target(target: Expression, value: Expression) -> bool:
    if not isinstance(target, (TupleExpr, ListExpr)) or not isinstance(value, TupleExpr):
        return False
    if len(target.items) != len(value.items) or any(isinstance(i, StarExpr) for i in (*target.items, *value.items)):
        return False
    bound: set[str] = set()
    for assigned, item in zip(target.items, value.items):
        names, members = all_name_and_member_expressions(item)
        if bound and any(_key(read) in bound for read in (*names, *members)):
            return True
        bound |= _bound_keys(assigned)
    return False


def _bound_keys(target: Expression) -> set[str]:
    if isinstance(target, (TupleExpr, ListExpr)):
        return set().union(*(_bound_keys(item) for item in target.items))
    key = _key(target)
    return {key} if key is not None else set()


def _key(e: Expression) -> str | None:
    """`a`, `self.x`: the names mypy's binder narrows; None for anything else."""
    if isinstance(e, NameExpr):
        return e.name
    if isinstance(e, MemberExpr):
        base = _key(e.expr)
        return f"{base}.{e.name}" if base is not None else None
    return None
