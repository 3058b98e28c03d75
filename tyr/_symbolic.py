"""Symbolic dimension sizes: integer polynomials over named sizes, with floor division.

Every size a shape rule or an annotation can speak of is an `Expr` in a normal
form, so that equal sizes compare equal: `4*D` is `D*4`, `(N+M)-M` is `N`,
`(2*H - 1)//2 + 1` is `H`.  The runtime checker (`tyr._checked`) compiles
expressions to Python; the mypy plugin normalises the sizes it infers.

A normal form is a sum of terms `coefficient * monomial`, where a monomial is a
sorted tuple of atoms (a symbol name, or a floor division that could not be
simplified away).  Sizes are integers, so `q*c + r` floor-divided by `c` is
exactly `q + r//c` for any integer polynomial `q`; that identity is the only
simplification floor division gets, and it is sound for every integer value.
"""

from __future__ import annotations

import ast
import math
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Union

Atom = Union[str, "FloorDiv"]
Monomial = tuple[Atom, ...]  # sorted by `_atom_key`; () is the constant monomial


class ExprSyntaxError(ValueError):
    """A dimension string uses something other than names, ints, `+ - * //` and parentheses."""


def _atom_key(atom: Atom) -> tuple[int, str]:
    return (0, atom) if isinstance(atom, str) else (1, str(atom))


def _monomial_key(mono: Monomial) -> tuple[int, list[tuple[int, str]]]:
    # Higher-degree monomials print first: `B*T + 1`, not `1 + B*T`.
    return (-len(mono), [_atom_key(a) for a in mono])


@dataclass(frozen=True)
class FloorDiv:
    """`num // den` that no identity could simplify: an opaque atom of a polynomial."""

    num: Expr
    den: Expr

    def __str__(self) -> str:
        return f"{self.num._str(parenthesise=True)}//{self.den._str(parenthesise=True)}"


@dataclass(frozen=True)
class Expr:
    """An integer polynomial in normal form; build with `sym`, `const`, `parse` and operators."""

    terms: tuple[tuple[Monomial, int], ...]  # sorted by monomial, no zero coefficients

    # -- construction -----------------------------------------------------------------

    @staticmethod
    def _from_dict(acc: Mapping[Monomial, int]) -> Expr:
        items = [(m, c) for m, c in acc.items() if c != 0]
        items.sort(key=lambda mc: _monomial_key(mc[0]))
        return Expr(tuple(items))

    # -- inspection -------------------------------------------------------------------

    @property
    def is_const(self) -> bool:
        return all(not m for m, _ in self.terms)

    @property
    def const_value(self) -> int | None:
        """The integer value when the expression has no symbols, else None."""
        if not self.terms:
            return 0
        if len(self.terms) == 1 and not self.terms[0][0]:
            return self.terms[0][1]
        return None

    @property
    def symbol_name(self) -> str | None:
        """The name when the expression is exactly one symbol (`B`), else None."""
        if len(self.terms) == 1:
            mono, coeff = self.terms[0]
            if coeff == 1 and len(mono) == 1 and isinstance(mono[0], str):
                return mono[0]
        return None

    @cached_property
    def symbols(self) -> frozenset[str]:
        """Every symbol name the expression mentions, including inside floor divisions."""
        names: set[str] = set()
        for mono, _ in self.terms:
            for atom in mono:
                if isinstance(atom, str):
                    names.add(atom)
                else:
                    names |= atom.num.symbols | atom.den.symbols
        return frozenset(names)

    # -- arithmetic -------------------------------------------------------------------

    def __add__(self, other: Expr | int) -> Expr:
        acc = dict(self.terms)
        for m, c in _as_expr(other).terms:
            acc[m] = acc.get(m, 0) + c
        return Expr._from_dict(acc)

    __radd__ = __add__

    def __neg__(self) -> Expr:
        return Expr(tuple((m, -c) for m, c in self.terms))

    def __sub__(self, other: Expr | int) -> Expr:
        return self + (-_as_expr(other))

    def __rsub__(self, other: Expr | int) -> Expr:
        return _as_expr(other) - self

    def __mul__(self, other: Expr | int) -> Expr:
        acc: dict[Monomial, int] = {}
        for m1, c1 in self.terms:
            for m2, c2 in _as_expr(other).terms:
                mono = tuple(sorted(m1 + m2, key=_atom_key))
                acc[mono] = acc.get(mono, 0) + c1 * c2
        return Expr._from_dict(acc)

    __rmul__ = __mul__

    def __floordiv__(self, other: Expr | int) -> Expr:
        den = _as_expr(other)
        den_value = den.const_value
        if den_value == 0:
            raise ZeroDivisionError(f"dimension expression {self} // 0")
        if den_value is not None:
            return self._floordiv_const(den_value)
        exact = self._divide_exactly(den)
        if exact is not None:
            return exact
        return Expr((((FloorDiv(self, den),), 1),))

    def __rfloordiv__(self, other: Expr | int) -> Expr:
        return _as_expr(other) // self

    def _floordiv_const(self, c: int) -> Expr:
        # (c*q + r) // c == q + r // c for integer q: every coefficient k splits into
        # c*(k//c) + k%c, so the atom left behind has coefficients in [0, c) and one
        # canonical form (`(H - 1)//2 + 1` and `(H + 1)//2` are the same size).
        if c < 0:
            return (-self)._floordiv_const(-c)
        if c == 1:
            return self
        quotient = Expr._from_dict({m: k // c for m, k in self.terms})
        rest = {m: k % c for m, k in self.terms if k % c}
        if all(not m for m in rest):
            return quotient  # the remainder is a constant in [0, c): it floors to 0
        # floor(g*r / (g*c)) == floor(r / c): cancel the common factor.
        g = math.gcd(c, *rest.values())
        rest = {m: k // g for m, k in rest.items()}
        c //= g
        # floor((x//a + p) / c) == floor((x + p*a) / (a*c)) for integer p and a > 0: nested
        # divisions fold, so `H//2//2` is `H//4`.
        for mono, k in rest.items():
            if k == 1 and len(mono) == 1 and isinstance(mono[0], FloorDiv):
                a = mono[0].den.const_value
                if a is not None and a > 0:
                    p = Expr._from_dict({m: j for m, j in rest.items() if m != mono})
                    return quotient + (mono[0].num + p * a)._floordiv_const(a * c)
        return quotient + Expr((((FloorDiv(Expr._from_dict(rest), const(c)),), 1),))

    def _divide_exactly(self, den: Expr) -> Expr | None:
        """`self / den` when den is one monomial dividing every term exactly, else None."""
        if len(den.terms) != 1:
            return None
        den_mono, den_coeff = den.terms[0]
        acc: dict[Monomial, int] = {}
        for mono, coeff in self.terms:
            remaining = list(mono)
            for atom in den_mono:
                if atom not in remaining:
                    return None
                remaining.remove(atom)
            if coeff % den_coeff != 0:
                return None
            acc[tuple(remaining)] = coeff // den_coeff
        return Expr._from_dict(acc)

    # -- values -----------------------------------------------------------------------

    def substitute(self, values: Mapping[str, Expr | int]) -> Expr:
        """Replace the named symbols by expressions (or ints) and renormalise."""
        if not (self.symbols & values.keys()):
            return self
        total = const(0)
        for mono, coeff in self.terms:
            product = const(coeff)
            for atom in mono:
                if isinstance(atom, str):
                    product = product * _as_expr(values[atom]) if atom in values else product * sym(atom)
                else:
                    product = product * (atom.num.substitute(values) // atom.den.substitute(values))
            total = total + product
        return total

    def evaluate(self, values: Mapping[str, int]) -> int | None:
        """The integer value given sizes for the symbols; None while any symbol is unknown."""
        return self.substitute(values).const_value

    def solve(self, target: int, values: Mapping[str, int]) -> tuple[str, int] | None:
        """Find the one unknown symbol that makes `self == target`, if that is forced.

        Works when, after substituting `values`, exactly one symbol is left and it
        appears linearly outside any floor division (`2*D` given 10 gives D = 5;
        `T+1` given 9 gives T = 8).  Returns None when no single integer solves it
        or the expression is not of that form: the caller reports the mismatch.
        """
        rest = self.substitute(values)
        if len(rest.symbols) != 1:
            return None
        (name,) = rest.symbols
        coefficient = 0
        offset = 0
        for mono, coeff in rest.terms:
            if mono == ():
                offset = coeff
            elif mono == (name,):
                coefficient = coeff
            else:
                return None
        if coefficient == 0 or (target - offset) % coefficient != 0:
            return None
        return name, (target - offset) // coefficient

    # -- printing ---------------------------------------------------------------------

    def _str(self, parenthesise: bool = False) -> str:
        if not self.terms:
            return "0"
        parts: list[str] = []
        for mono, coeff in self.terms:
            # `//` binds like `*` and unary minus binds tighter: a division that is not the
            # whole term is parenthesised, so the text parses back to the same size.
            lone = len(mono) == 1 and coeff == 1 or (coeff == -1 and len(mono) == 1 and bool(parts))
            factors = [a if isinstance(a, str) else str(a) if lone else f"({a})" for a in mono]
            if not factors:
                body = str(abs(coeff))
            elif abs(coeff) == 1:
                body = "*".join(factors)
            else:
                body = "*".join([str(abs(coeff)), *factors])
            if not parts:
                parts.append(body if coeff > 0 else f"-{body}")
            else:
                parts.append(f" + {body}" if coeff > 0 else f" - {body}")
        text = "".join(parts)
        mono, coeff = self.terms[0]
        single_factor = len(self.terms) == 1 and (
            (not mono and coeff >= 0) or (coeff == 1 and len(mono) == 1 and isinstance(mono[0], str))
        )
        return f"({text})" if parenthesise and not single_factor else text

    def __str__(self) -> str:
        return self._str()

    def __repr__(self) -> str:
        return f"Expr({self})"

    def to_python(self, names: Mapping[str, str]) -> str:
        """Python source computing this size, with each symbol read from the variable `names[symbol]`."""
        if not self.terms:
            return "0"
        parts: list[str] = []
        for mono, coeff in self.terms:
            factors = [str(coeff)] if coeff != 1 or not mono else []
            for atom in mono:
                if isinstance(atom, str):
                    factors.append(names[atom])
                else:
                    factors.append(f"(({atom.num.to_python(names)})//({atom.den.to_python(names)}))")
            parts.append("*".join(factors))
        return "(" + " + ".join(parts) + ")"


def const(value: int) -> Expr:
    return Expr(((((), value),))) if value else Expr(())


def sym(name: str) -> Expr:
    return Expr((((name,), 1),))


def _as_expr(value: Expr | int) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a dimension is an int or an Expr, not {value!r}")
    return const(value)


_BINARY_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//"}


def parse(text: str) -> Expr:
    """Parse a dimension string such as `"N+M"`, `"D//4"` or `"B*T"` into normal form."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as err:
        raise ExprSyntaxError(f"cannot parse dimension {text!r}: {err.msg}") from None
    return _from_ast(tree.body, text)


def _from_ast(node: ast.expr, text: str) -> Expr:
    if isinstance(node, ast.Name):
        return sym(node.id)
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return const(node.value)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = _from_ast(node.operand, text)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY_OPS:
        left, right = _from_ast(node.left, text), _from_ast(node.right, text)
        if isinstance(node.op, ast.Add):
            return left + right
        if isinstance(node.op, ast.Sub):
            return left - right
        if isinstance(node.op, ast.Mult):
            return left * right
        return left // right
    raise ExprSyntaxError(
        f"dimension {text!r} may only use names, int literals, + - * // and parentheses; "
        f"found {ast.unparse(node)!r}"
    )


def sizes_equal(a: Expr, b: Expr) -> bool:
    """Whether two sizes are the same size (SHAPES.md §6)."""
    return a == b
