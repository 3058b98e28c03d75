"""Symbolic dimension sizes: integer polynomials over named sizes, with floor division.

Every size a shape rule or an annotation can speak of is an `Expr` in a normal
form, so that equal sizes compare equal: `4*D` is `D*4`, `(N+M)-M` is `N`,
`(2*H - 1)//2 + 1` is `H`.  The runtime checker (`tyr._checked`) compiles
expressions to Python; the mypy plugin normalises the sizes it infers.

A normal form is a sum of terms `coefficient * monomial`, where a monomial is a
sorted tuple of atoms (a symbol name, or a floor division that could not be
simplified away).  Sizes are integers, so `q*c + r` floor-divided by `c` is
exactly `q + r//c` for any integer polynomial `q`; that identity is the only
simplification floor division gets on its own, and it holds for every value.

Division in sizes is exact (SHAPES.md §6).  Models divide sizes only where the
division is exact (`c // n_head`, `hd // 2`), so every symbol that an expression
divides is taken to be a multiple of its divisors: in `(Hd + 1)//2`, `Hd` is even.
The normal form writes each such symbol as that multiple of a fresh symbol,
simplifies (the divisions become exact and disappear), and writes the result back
in the user's symbols, so `2*(Hd//2)` is `Hd`, `Hd - Hd//2` is `Hd//2` and
`H*(D//H)` is `D`.  Constants still divide exactly as Python does (`7//2` is 3).
Two sizes are equal when they agree under every assignment satisfying both
sizes' divisibility facts (`sizes_equal`); symbols otherwise stay rigid.
"""

from __future__ import annotations

import ast
import math
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property, lru_cache
from typing import Union

Atom = Union[str, "FloorDiv"]
Monomial = tuple[Atom, ...]  # sorted by `_atom_key`; () is the constant monomial


_LARGEST_COEFFICIENT = 10**1000
"""No size has such a coefficient; rewriting under facts that feed each other can build one."""


class SizeTooLarge(ArithmeticError):
    """A normal form grew a coefficient past `_LARGEST_COEFFICIENT`: it is given up (the size stays as it was)."""


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


Fact = tuple[str, "Expr"]
"""A symbol and a divisor it is a multiple of (SHAPES.md §6)."""


@dataclass(frozen=True)
class Expr:
    """An integer polynomial in normal form; build with `sym`, `const`, `parse` and operators."""

    terms: tuple[tuple[Monomial, int], ...]  # sorted by monomial, no zero coefficients
    # What the sizes it was computed from stated, kept when the divisions that stated it
    # cancel (`(H//Ws)*Ws` is `H`, still a multiple of `Ws`); not part of its value.
    facts: frozenset[Fact] = field(default=frozenset(), compare=False, repr=False)

    # -- construction -----------------------------------------------------------------

    @staticmethod
    def _from_dict(acc: Mapping[Monomial, int]) -> Expr:
        items = [(m, c) for m, c in acc.items() if c != 0]
        if any(abs(c) > _LARGEST_COEFFICIENT for _, c in items):
            raise SizeTooLarge
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

    @cached_property
    def has_division(self) -> bool:
        """Whether a floor division is left in the normal form (`D//4`, `(H + 1)//W`)."""
        return any(isinstance(atom, FloorDiv) for mono, _ in self.terms for atom in mono)

    # -- arithmetic (every result in normal form, division rule included) ---------------

    def __add__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_add(self, o), self, o)

    __radd__ = __add__

    def __neg__(self) -> Expr:
        return replace(_neg(self), facts=self.facts)

    def __sub__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_add(self, _neg(o)), self, o)

    def __rsub__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_add(o, _neg(self)), self, o)

    def __mul__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_mul(self, o), self, o)

    __rmul__ = __mul__

    def __floordiv__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_floordiv(self, o), self, o)

    def __rfloordiv__(self, other: Expr | int) -> Expr:
        o = _as_expr(other)
        return _canonical(_floordiv(o, self), self, o)

    # -- values -----------------------------------------------------------------------

    def substitute(self, values: Mapping[str, Expr | int]) -> Expr:
        """Replace the named symbols by expressions (or ints) and renormalise."""
        if not (self.symbols & values.keys()):
            return self
        exprs = {k: _as_expr(v) for k, v in values.items()}
        return _canonical(replace(_substitute(self, exprs), facts=_substitute_facts(self.facts, exprs)))

    def evaluate(self, values: Mapping[str, int]) -> int | None:
        """The integer value given sizes for the symbols; None while any symbol is unknown."""
        return self.substitute(values).const_value

    def solve(self, target: int, values: Mapping[str, int]) -> tuple[str, int] | None:
        """Find the one unknown symbol that makes `self == target`, if that is forced.

        Works when, after substituting `values`, exactly one symbol is left and its
        value follows (`2*D` given 10 gives D = 5; `T+1` given 9 gives T = 8; `D//4`
        given 8 gives D = 32, D being a multiple of 4).  Returns None when no single
        integer solves it or the expression is not of that form: the caller reports
        the mismatch.
        """
        rest = self.substitute(values)
        if len(rest.symbols) != 1:
            return None
        (name,) = rest.symbols
        solved = solve_for(rest, name, const(target))
        if not isinstance(solved, Expr) or solved.const_value is None:
            return None
        return name, solved.const_value

    # -- printing ---------------------------------------------------------------------

    def isolate(self) -> tuple[str, Expr] | None:
        """A symbol and what it is where this expression is 0 (`L - N` gives `L` is `N`, `2*L - 2*N - 2`
        gives `L` is `N + 1`): one that appears alone in one term, nowhere else, with a coefficient that
        divides every other term's.  None where no symbol is so."""
        for mono, coeff in self.terms:
            if len(mono) != 1 or not isinstance(mono[0], str):
                continue
            name = mono[0]
            rest = [(m, c) for m, c in self.terms if m != mono]
            if any(name in Expr(((m, 1),)).symbols for m, _ in rest):
                continue
            if any(c % coeff for _, c in rest):
                continue
            return name, Expr._from_dict({m: -c // coeff for m, c in rest})
        return None

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


def names_in_order(text: str) -> list[str]:
    """The symbol names a size string mentions, each once, in order of first appearance."""
    return list(dict.fromkeys(_NAME.findall(text)))


_NAME = re.compile(r"[A-Za-z_]\w*")


def sym(name: str) -> Expr:
    return Expr((((name,), 1),))


def _as_expr(value: Expr | int) -> Expr:
    if isinstance(value, Expr):
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"a dimension is an int or an Expr, not {value!r}")
    return const(value)


# -- polynomial arithmetic, before the division rule -----------------------------------------------


def _add(a: Expr, b: Expr) -> Expr:
    acc = dict(a.terms)
    for m, c in b.terms:
        acc[m] = acc.get(m, 0) + c
    return Expr._from_dict(acc)


def _neg(a: Expr) -> Expr:
    return Expr(tuple((m, -c) for m, c in a.terms))


def _mul(a: Expr, b: Expr) -> Expr:
    acc: dict[Monomial, int] = {}
    for m1, c1 in a.terms:
        for m2, c2 in b.terms:
            mono = tuple(sorted(m1 + m2, key=_atom_key))
            acc[mono] = acc.get(mono, 0) + c1 * c2
    return Expr._from_dict(acc)


def _floordiv(num: Expr, den: Expr, *, as_written: bool = False) -> Expr:
    """`num // den`, simplified by identities that hold for every value.

    `as_written` keeps the divisions the operands already hold apart, as `parse_raw`
    needs to read what an annotation states.
    """
    den_value = den.const_value
    if den_value == 0:
        raise ZeroDivisionError(f"dimension expression {num} // 0")
    if num.const_value == 0:
        return num  # `0 // d` is 0 for every d (and `0*(B//2)` keeps its facts), whatever the sign of d
    if den_value is not None:
        return _floordiv_const(num, den_value)
    divisor = _monomial(den)
    if divisor is None:
        return _floordiv_polynomial(num, den)
    num_value = num.const_value
    positive = _positive_monomial(den)
    if num_value is not None and positive is not None and -positive[1] <= num_value < positive[1]:
        # a product of positive symbols is at least its coefficient c: `k // den` is 0 for 0 <= k < c
        # and -1 for -c <= k < 0 (`(-1)//S` is -1 for every stride S)
        return const(0 if num_value >= 0 else -1)
    if not as_written and (num.has_division or den.has_division or num.facts or den.facts):
        # `(5*H*(W//3)) // (5*W)` is `H//3`: with `W = 3*W~0` the factor `W~0` cancels; divided
        # as written, it would make `H` a multiple of `W`, which nobody wrote.
        (fresh_num, fresh_den), facts = _expand([num, den])
        if facts and _common_factor(fresh_num, fresh_den) is not None:
            return _collapse(_floordiv(fresh_num, fresh_den), facts)
    common = _common_factor(num, den)
    if common is not None:
        # floor(g*r / (g*m)) == floor(r / m) for a positive g, a product of symbols (sizes are
        # positive) and a positive integer: `(B*T*D)//(2*B*T)` is `D//2`, `(5*K*K)//(5*K*E)` is `K//E`.
        # Divided again from the top: what is left may be a small constant (`(-B)//(B*B)` is `(-1)//B`, -1).
        return _floordiv(_divide_by(num, common), _divide_by(den, common), as_written=as_written)
    # (q*m + r) // m == q + r // m for a monomial m and integer polynomials q, r.
    quotient: dict[Monomial, int] = {}
    rest: dict[Monomial, int] = {}
    for mono, coeff in num.terms:
        divided = _divide_term(mono, coeff, divisor)
        if divided is None:
            rest[mono] = coeff
        else:
            quotient[divided[0]] = quotient.get(divided[0], 0) + divided[1]
    q = Expr._from_dict(quotient)
    if not rest:
        return q
    left = Expr._from_dict(rest)
    value = left.const_value
    if value is not None and positive is not None and -positive[1] <= value < positive[1]:
        return _add(q, const(0 if value >= 0 else -1))  # `(W - 1)//W` is 1 + (-1)//W, that is 0
    return _add(q, _atom(left, den))


def _floordiv_polynomial(num: Expr, den: Expr) -> Expr:
    """`num // den` for a divisor of several terms (`(D + 1)//(D + 1)` is 1, a grouped convolution's
    channels per group): `num` is `q*den + r` by long division, and `(q*den + r)//den` is `q + r//den`
    for every value.  Only a remainder that folds away is taken (0, or a constant within the least
    value of `den`, which has positive coefficients); any other division stays as written.
    """
    lead = Counter(den.terms[0][0]), den.terms[0][1]
    quotient: dict[Monomial, int] = {}
    rest = num
    for _ in range(_MAX_LONG_DIVISION_STEPS):
        if not rest.terms or rest.is_const:
            break
        divided = _divide_term(*rest.terms[0], lead)
        if divided is None:
            return _atom(num, den)
        quotient[divided[0]] = quotient.get(divided[0], 0) + divided[1]
        rest = _add(rest, _neg(_mul(Expr((divided,)), den)))
    else:
        return _atom(num, den)
    q = Expr._from_dict(quotient)
    remainder = rest.const_value or 0
    if remainder == 0:
        return q
    least = _least_value(den)
    if least is not None and -least <= remainder < least:
        return _add(q, const(0 if remainder >= 0 else -1))
    return _atom(num, den)


_MAX_LONG_DIVISION_STEPS = 32
"""How many quotient terms a long division may find before the division is left as written."""


def _least_value(e: Expr) -> int | None:
    """A positive lower bound on `e` for every value of its symbols from 0 up, when its coefficients are all
    positive and its atoms symbols: its constant term (None when that is not positive)."""
    if any(c <= 0 or any(not isinstance(a, str) for a in m) for m, c in e.terms):
        return None
    constant = dict(e.terms).get((), 0)
    return constant if constant > 0 else None


def _common_factor(num: Expr, den: Expr) -> tuple[Counter[Atom], int] | None:
    """The symbols (with powers) and positive integer that divide every term of `num` and `den`, if any."""
    shared: Counter[Atom] | None = None
    g = 0
    for mono, coeff in (*num.terms, *den.terms):
        powers: Counter[Atom] = Counter(a for a in mono if isinstance(a, str))
        shared = powers if shared is None else shared & powers
        g = math.gcd(g, coeff)
    if not shared and g <= 1:
        return None
    return shared or Counter(), g


def _divide_by(e: Expr, factor: tuple[Counter[Atom], int]) -> Expr:
    """`e` divided by a factor (symbols and a positive integer) that divides each of its terms."""
    out: dict[Monomial, int] = {}
    for mono, coeff in e.terms:
        divided = _divide_term(mono, coeff, factor)
        assert divided is not None
        out[divided[0]] = out.get(divided[0], 0) + divided[1]
    return Expr._from_dict(out)


def _floordiv_const(num: Expr, c: int) -> Expr:
    # (c*q + r) // c == q + r // c for integer q: every coefficient k splits into
    # c*(k//c) + k%c, so the atom left behind has coefficients in [0, c) and one
    # canonical form (`(H - 1)//2 + 1` and `(H + 1)//2` are the same size).
    if c < 0:
        return _floordiv_const(_neg(num), -c)
    if c == 1:
        return num
    quotient = Expr._from_dict({m: k // c for m, k in num.terms})
    rest = {m: k % c for m, k in num.terms if k % c}
    if () in rest and any(len(m) >= 2 for m in rest):
        # A sum with a product in it is divided as a whole (`_divides_as_a_whole`): c divides its
        # variable part, so the constant in [0, c) floors away, as `(Hd + 1)//2` is `Hd//2` (§6):
        # `(H*Dh + 1)//2` is `(H*Dh)//2`, and twice it `H*Dh`.
        del rest[()]
    if all(not m for m in rest):
        return quotient  # the remainder is a constant in [0, c): it floors to 0
    # floor(g*r / (g*c)) == floor(r / c): cancel the common factor.
    g = math.gcd(c, *rest.values())
    rest = {m: k // g for m, k in rest.items()}
    c //= g
    # floor(floor(x / a) / c) == floor(x / (a*c)) for a > 0: a division of a division folds, so
    # `H//2//2` is `H//4`.  With an offset (`(N//2 - 2)//4`) the identity holds too, but the
    # folded `(N - 4)//8` would state that 8 divides `N`, which nobody wrote: it stays.
    if len(rest) == 1:
        ((mono, k),) = rest.items()
        if k == 1 and len(mono) == 1 and isinstance(mono[0], FloorDiv):
            a = mono[0].den.const_value
            if a is not None and a > 0:
                return _add(quotient, _floordiv_const(mono[0].num, a * c))
    return _add(quotient, _atom(Expr._from_dict(rest), const(c)))


def _atom(num: Expr, den: Expr) -> Expr:
    return Expr((((FloorDiv(num, den),), 1),))


def _monomial(e: Expr) -> tuple[Counter[Atom], int] | None:
    """`e` as (atoms with their powers, coefficient) when it is a single term."""
    if len(e.terms) != 1:
        return None
    mono, coeff = e.terms[0]
    return Counter(mono), coeff


def _positive_monomial(e: Expr) -> tuple[Counter[Atom], int] | None:
    """`e` as a single term when it is a product of symbols with a positive coefficient (a divisor)."""
    found = _monomial(e)
    if found is None or found[1] <= 0 or any(not isinstance(a, str) for a in found[0]):
        return None
    return found


def _divide_term(mono: Monomial, coeff: int, divisor: tuple[Counter[Atom], int]) -> tuple[Monomial, int] | None:
    """`coeff * mono` divided by the monomial `divisor`, when it divides exactly."""
    powers, d_coeff = divisor
    if coeff % d_coeff:
        return None
    have = Counter(mono)
    if any(have[a] < n for a, n in powers.items()):
        return None
    have.subtract(powers)
    return tuple(sorted(have.elements(), key=_atom_key)), coeff // d_coeff


def divides_symbolic_terms(divisor: Expr, e: Expr) -> bool:
    """Whether `divisor` (a positive product of symbols, or a positive constant) divides every term of `e`
    that has a symbol in it, as polynomials: `2*P - 3` by 2, `-P` by `P`; not `-K` by 2."""
    found = _positive_monomial(divisor)
    if found is None:
        return False
    return all(_divide_term(mono, coeff, found) is not None for mono, coeff in e.terms if mono)


def _substitute(e: Expr, values: Mapping[str, Expr]) -> Expr:
    """`e` with symbols replaced, renormalised without the division rule."""
    if not (e.symbols & values.keys()):
        return e
    total = Expr(())
    for mono, coeff in e.terms:
        product = const(coeff)
        for atom in mono:
            if isinstance(atom, str):
                product = _mul(product, values.get(atom, sym(atom)))
            else:
                product = _mul(product, _floordiv(_substitute(atom.num, values), _substitute(atom.den, values)))
        total = _add(total, product)
    return total


# -- the division rule -------------------------------------------------------------------------------

_MAX_ROUNDS = 3
"""How often a normal form is rewritten before it is taken as it is (it settles in one or two)."""


@dataclass(frozen=True)
class _Fact:
    """`symbol` is `divisor * fresh`: the symbol is a multiple of the divisor (SHAPES.md §6)."""

    symbol: str
    divisor: Expr  # a positive monomial, in the symbols current when the fact was found
    fresh: str


def _facts_of(e: Expr, path: Expr | None, found: dict[str, list[Expr]], *, sized: bool = False) -> None:
    """Collect what `e` divides: each symbol in a division's dividend is a multiple of its divisor.

    In `(T - B//2)//3`, `T` and `B` are multiples of 3 and `B` of 2; in `(N//2 - 2)//4`, `N` of
    2 and of 4.  Where the dividend is exactly a division, the division of a division, the
    divisors multiply: in `(D//H)//2` the quotient `D//H` is even, so `D` is a multiple of
    `2*H` (`path` is the product of the divisors of such a chain).  With `sized`, a divisor
    may also hold divisions (`H // (H//K)`: `H` is a multiple of the size `H//K`).
    """
    for mono, _ in e.terms:
        for atom in mono:
            if not isinstance(atom, FloorDiv):
                continue
            _facts_of(atom.den, None, found, sized=sized)
            single = _monomial(atom.den) if sized else _positive_monomial(atom.den)
            if single is None or single[1] <= 0:
                _facts_of(atom.num, None, found, sized=sized)
                continue
            divisor = atom.den if path is None else _mul(path, atom.den)
            if _a_quotient_of_a_product(atom):
                # `(B*T)//6` says that 6 divides the product, not which factor: neither is taken to be
                # a multiple (at B=3, T=4 its size is 2; `T*(B//6)` would be 0).  It stays as it is.
                # So does a quotient of a product divided again, `((Dh*H)//2)//H` (noting `H` a
                # multiple of `2*H` made a size 0).
                _facts_of(atom.num, None, found, sized=sized)
                continue
            for name in _dividend_symbols(atom.num):
                # a symbol the divisor itself is a multiple of (`H` in `(D + H)//H`) is not divided
                if not any(name in m for m, _ in atom.den.terms):
                    _note(found, name, atom.den)
            inner = _whole_division(atom.num) or _coprime_multiple_of_division(atom.num, atom.den)
            chained = inner is not None and (_monomial(inner.den) if sized else _positive_monomial(inner.den))
            if inner is not None and chained and chained[1] > 0:
                _facts_of(atom.num, divisor, found, sized=sized)  # a division of a division: chain
                chain = _mul(divisor, inner.den)
                for name in _dividend_symbols(inner.num):
                    if not any(name in m for m, _ in chain.terms):
                        _note(found, name, chain)
            else:
                _facts_of(atom.num, None, found, sized=sized)


def _divides_as_a_whole(atom: FloorDiv) -> bool:
    """Whether a division says only that its divisor divides the dividend as a whole: a product of
    two or more factors, symbols or quotients (`(B*T)//6`; `((D//2)*(T//H))//H`, which at D=2, T=8,
    H=4 is 1 while `(T//H)*(D//2//H)` is 0), or one factor times a constant divided by a size with
    symbols (`(2*D)//B`: at B=4, D=6 it is 3, and `2*(D//B)` would be 2).  A constant divisor of one
    factor is no such case: once the common factor is gone (`(2*D)//4` is `D//2`), 3 divides `2*D`
    only where it divides `D`.  So does a sum with a product in it: `F*(F-1)//2` counts pairs, a whole
    number at every `F`, and `F` even would make it `F*(F//2) - F//2`, 1 at F=3 where it is 3."""
    if len(atom.num.terms) != 1:
        return any(len(mono) >= 2 for mono, _ in atom.num.terms)
    mono, coeff = atom.num.terms[0]
    if len(mono) >= 2:
        return True
    return abs(coeff) != 1 and len(mono) == 1 and atom.den.const_value is None


def _a_quotient_of_a_product(division: FloorDiv) -> bool:
    """Whether `division` is a chain of divisions whose innermost dividend is divided as a whole:
    `(B*T)//6`, `((Dh*H)//2)//H`."""
    while not _divides_as_a_whole(division):
        inner = _whole_division(division.num)
        if inner is None:
            return False
        division = inner
    return True


def _is_product(e: Expr) -> bool:
    """A product of two or more symbols, with a coefficient (`B*T`, `3*H*W`): no sum, no division."""
    if len(e.terms) != 1:
        return False
    mono, _ = e.terms[0]
    return len(mono) >= 2 and all(isinstance(atom, str) for atom in mono)


def _fold_exact_products(e: Expr) -> Expr:
    """`6*((B*T)//6)` is `B*T`: a product divided exactly, multiplied back by its divisor."""
    out: dict[Monomial, int] = {}
    changed = False
    for mono, coeff in e.terms:
        for i, atom in enumerate(mono):
            if isinstance(atom, FloorDiv) and _divides_as_a_whole(atom):
                divisor = _positive_monomial(atom.den)
                rest = mono[:i] + mono[i + 1 :]
                divided = _divide_term(rest, coeff, divisor) if divisor is not None else None
                if divided is not None:
                    folded = _mul(Expr(((divided[0], divided[1]),)), atom.num)
                    for m, c in folded.terms:
                        out[m] = out.get(m, 0) + c
                    changed = True
                    break
        else:
            out[mono] = out.get(mono, 0) + coeff
    return replace(Expr._from_dict(out), facts=e.facts) if changed else e


def _dividend_symbols(e: Expr) -> set[str]:
    """The symbols a division of `e` divides: those of `e` outside the divisors of its own divisions."""
    names: set[str] = set()
    for mono, _ in e.terms:
        for atom in mono:
            names |= {atom} if isinstance(atom, str) else _dividend_symbols(atom.num)
    return names


def _whole_division(e: Expr) -> FloorDiv | None:
    """The division `e` is, when it is exactly one (`D//H`, not `2*(D//H)` or `D//H - 2`)."""
    if len(e.terms) == 1:
        mono, coeff = e.terms[0]
        if coeff == 1 and len(mono) == 1 and isinstance(mono[0], FloorDiv):
            return mono[0]
    return None


def _coprime_multiple_of_division(e: Expr, divisor: Expr) -> FloorDiv | None:
    """The division `e` is a multiple of, where that multiple's factor is prime to a constant divisor:
    `3*(W//4)` divided by 4 says that 4 divides `W//4` (so `W` is a multiple of 16), as `(W//4)//4` does
    (`parse_raw` writes `(-(W//4))//4` as `(3*(W//4))//4 - W//4`)."""
    d = divisor.const_value
    if d is None or len(e.terms) != 1:
        return None
    mono, coeff = e.terms[0]
    if len(mono) != 1 or not isinstance(mono[0], FloorDiv) or math.gcd(coeff, d) != 1:
        return None
    return mono[0]


def _note(found: dict[str, list[Expr]], name: str, divisor: Expr) -> None:
    divisors = found.setdefault(name, [])
    if divisor not in divisors:
        divisors.append(divisor)


def _expand(exprs: Sequence[Expr]) -> tuple[list[Expr], list[_Fact]]:
    """`exprs` with every divided symbol written as a multiple of its divisors, and the facts used.

    Each symbol `S` that the expressions divide is written as `m * S~k`, where `m` is
    the one divisor of `S` that all its other divisors divide (a multiple of 2 and of
    3 is a multiple of 6; of `H` and `2*H`, of `2*H`); the divisions then become
    exact and disappear.  Where the divisors have no such common multiple (2 and `H`),
    the divisors the expressions themselves divide `S` by are used, if they have one:
    `H*(D//H)` is `D` even where `D` is also known to be even (any one fact is true, so
    writing `S` as a multiple of it is sound).  Otherwise `S` keeps its divisions.
    """
    written: dict[str, list[Expr]] = {}
    for e in exprs:
        if e.has_division:
            _facts_of(e, None, written)
    found = {name: list(divisors) for name, divisors in written.items()}
    for e in exprs:
        for name, divisor in e.facts:
            _note(found, name, divisor)
    multiples = {
        name: m for name, divisors in found.items() if (m := _a_common_multiple(divisors, written.get(name, []))) is not None
    }
    work = list(exprs)
    facts: list[_Fact] = []
    for name in _substitution_order(multiples):
        fact = _Fact(name, multiples[name], f"{name}~{len(facts)}")
        facts.append(fact)
        work = [_substitute(e, {name: _mul(fact.divisor, sym(fact.fresh))}) for e in work]
    return work, facts


def _a_common_multiple(divisors: Sequence[Expr], written: Sequence[Expr]) -> Expr | None:
    """What to write a symbol as a multiple of: the common multiple of all its `divisors`, else of
    those its expression divides it by (`written`)."""
    for candidates in (divisors, written):
        if candidates and (m := _common_multiple(candidates)) is not None:
            return m
    return None


def _common_multiple(divisors: Sequence[Expr]) -> Expr | None:
    """The divisor that is a multiple of all the others, or the lcm of constants; None if neither."""
    values = [d.const_value for d in divisors]
    if all(v is not None for v in values):
        return const(math.lcm(*(v for v in values if v is not None)))
    for candidate in divisors:
        found = _positive_monomial(candidate)
        assert found is not None
        if all(_divide_term(tuple(found[0].elements()), found[1], _positive_monomial(d) or found) is not None
               for d in divisors):
            return candidate
    return None


def _substitution_order(multiples: Mapping[str, Expr]) -> list[str]:
    """The symbols in an order where a symbol's divisor never mentions a symbol written before it.

    `D` a multiple of `H` and `H` of 2: `D = H*D~0` first, then `H = 2*H~1` (inside it too).
    Symbols whose divisors refer to each other in a cycle are left out.
    """
    order: list[str] = []
    placed: set[str] = set()
    pending = sorted(multiples)
    while pending:
        # a symbol can go once no other pending symbol's divisor still needs it unwritten
        ready = [s for s in pending if not any(s in multiples[o].symbols for o in pending if o != s)]
        if not ready:
            break
        for s in ready:
            order.append(s)
            placed.add(s)
        pending = [s for s in pending if s not in placed]
    return order


def _collapse(e: Expr, facts: Sequence[_Fact]) -> Expr:
    """`e`, written in fresh symbols, back in the original ones (the reverse of `_expand`)."""
    for fact in reversed(facts):
        e = _collapse_fact(e, fact)
    return e


def _collapse_fact(e: Expr, fact: _Fact) -> Expr:
    """Replace `fact.fresh` by `symbol // divisor`, folding `divisor**j * fresh**j` into `symbol**j`."""
    if fact.fresh not in e.symbols:
        return e
    divisor = _positive_monomial(fact.divisor)
    assert divisor is not None
    quotient = _floordiv(sym(fact.symbol), fact.divisor)
    total = Expr(())
    for mono, coeff in e.terms:
        power = sum(1 for a in mono if a == fact.fresh)
        rest: Monomial = tuple(a for a in mono if a != fact.fresh)
        whole = 0
        while whole < power:
            divided = _divide_term(rest, coeff, divisor)
            if divided is None:
                break
            rest, coeff = divided
            whole += 1
        partial = None
        if whole < power:
            # part of the divisor divides the term: `2*(D//(2*H))` is `D//H` (`D` is a multiple of `2*H`),
            # one form for the sizes that the facts make equal
            shared = _monomial_gcd(rest, coeff, divisor)
            if shared is not None:
                divided = _divide_term(rest, coeff, shared)
                smaller = _divide_term(tuple(divisor[0].elements()), divisor[1], shared)
                assert divided is not None and smaller is not None
                rest, coeff = divided
                partial = _floordiv(sym(fact.symbol), Expr(((smaller[0], smaller[1]),)))
        term = const(coeff)
        for atom in rest:
            if isinstance(atom, str):
                term = _mul(term, sym(atom))
            else:
                # a division that stayed keeps `symbol // divisor` as it is: folding `2*(B//2)` into
                # `B` inside it would make it divide `B` itself, which nobody wrote
                term = _mul(term, _substitute(_atom(atom.num, atom.den), {fact.fresh: quotient}))
        for _ in range(whole):
            term = _mul(term, sym(fact.symbol))
        for i in range(power - whole):
            term = _mul(term, partial if i == 0 and partial is not None else quotient)
        total = _add(total, term)
    return total


def _monomial_gcd(mono: Monomial, coeff: int, divisor: tuple[Counter[Atom], int]) -> tuple[Counter[Atom], int] | None:
    """The greatest factor (symbols and a positive integer) of `coeff * mono` and of `divisor`, when
    it is more than 1."""
    have: Counter[Atom] = Counter(mono)
    powers, d_coeff = divisor
    common: Counter[Atom] = Counter({a: min(n, have[a]) for a, n in powers.items() if isinstance(a, str) and have[a]})
    g = math.gcd(coeff, d_coeff)
    if g == 1 and not common:
        return None
    return common, g


def _canonical(e: Expr, *operands: Expr) -> Expr:
    """The normal form of `e` under the division rule: its own divided symbols as multiples.

    The result carries the facts of `e`, of the `operands` it was computed from and of
    its divisions, so that they outlive divisions that cancel.
    """
    carried = e.facts.union(*(o.facts for o in operands))
    if carried != e.facts:
        e = replace(e, facts=carried)
    if not e.has_division:
        return e
    e = _fold_exact_products(e)
    found: dict[str, list[Expr]] = {}
    result = _canonical_and_facts(e, found)
    stated = frozenset((name, d) for name, divisors in found.items() for d in divisors)
    return replace(result, facts=carried | stated)


def _substitute_facts(facts: frozenset[Fact], values: Mapping[str, Expr]) -> frozenset[Fact]:
    """Facts renamed along with their symbols (a symbol replaced by an expression loses its facts)."""
    out: set[Fact] = set()
    for name, divisor in facts:
        target = values.get(name)
        new_name = name if target is None else target.symbol_name
        if new_name is None:
            continue
        new_divisor = _substitute(divisor, values)
        if _positive_monomial(new_divisor) is not None:
            out.add((new_name, new_divisor))
    return frozenset(out)


def _canonical_and_facts(e: Expr, found: dict[str, list[Expr]] | None) -> Expr:
    """`_canonical`, also collecting into `found` the facts each rewriting assumed.

    Rewriting a form can expose another division (`(2*B)//(H*(T//H))` becomes
    `(2*B)//T` once `T` is a multiple of `H`), so it is repeated until nothing
    changes: the normal form is a fixed point, and its facts are those of every step.
    """
    for _ in range(_MAX_ROUNDS):
        if not e.has_division:
            return e
        if found is not None:
            _facts_of(e, None, found)
        try:
            (expanded,), facts = _expand([e])
            if not facts:
                return e
            collapsed = _collapse(expanded, facts)
        except SizeTooLarge:
            return e
        if collapsed == e:
            return e
        e = collapsed
    return e


def under_facts(e: Expr, facts: Iterable[Fact]) -> Expr:
    """The normal form of `e` where the sizes also satisfy `facts`: with `W` dividing `T` (a
    signature's `T//W`), `(B*T)//W` is `B*(T//W)`."""
    # (only a divisor that is a product of sizes can be a fact of a normal form: `Bw//((Hi//W)*(Wi//W))`
    # says nothing `_expand` can write a multiple of)
    relevant = frozenset(fact for fact in facts if fact[0] in e.symbols and _positive_monomial(fact[1])) - e.facts
    if not relevant or not e.has_division:
        return e
    return _canonical(replace(e, facts=e.facts | relevant))


def sizes_equal(a: Expr, b: Expr) -> bool:
    """Whether two sizes are the same size: equal under every assignment that satisfies the
    divisibility facts of both (SHAPES.md §6), as far as the normal forms can show."""
    if a == b:
        return True
    if not (a.has_division or b.has_division or a.facts or b.facts):
        return False
    ea, eb = _comparable(a, b)
    return ea == eb


def sizes_differ(a: Expr, b: Expr) -> bool:
    """Whether two sizes are provably different sizes (SHAPES.md §6: symbols are rigid, `B` is not 4).

    Once the divided symbols are written as multiples, two polynomials that differ
    differ at some sizes; a division that stays (`1//H`, or `W` divided by both 3 and
    `2*B`) could hide an equality, so such sizes are not called different.
    """
    if a == b:
        return False
    ea, eb = _comparable(a, b)
    return ea != eb and not (ea.has_division or eb.has_division)


def _comparable(a: Expr, b: Expr) -> tuple[Expr, Expr]:
    """`a` and `b` with their divided symbols written as multiples (`_expand`), then their exact
    divisions of products (`(B*T)//6`) written as polynomials too.

    A product divided by a constant is exact wherever the code is valid (§6), but it says
    nothing about which factor the divisor divides, so normal forms keep it whole.  To compare
    two sizes, it is enough to compare them where one factor is a multiple (`B = 6*B'`, where
    `(B*T)//6` is `B'*T`): the product's quotient is then the same polynomial, and two
    polynomials that agree on those infinitely many sizes agree on all valid ones.
    """
    (ea, eb), _ = _expand([a, b])
    for _ in range(_MAX_ROUNDS):
        if not (ea.has_division or eb.has_division):
            break
        multiple = _a_factor_to_divide(ea) or _a_factor_to_divide(eb)
        if multiple is None:
            break
        name, divisor = multiple
        fresh = {name: _mul(const(divisor), sym(f"{name}~x"))}
        ea, eb = _substitute(ea, fresh), _substitute(eb, fresh)
    return ea, eb


def exact_quotient(num: Expr, den: Expr) -> Expr | None:
    """`num / den` where it is a whole size under the divisibility facts of both (SHAPES.md §6), else None.

    `(H*K*K) // ((H*K*K)//2)` is 2: the code divides `H*K*K` by 2, so it is even.  Where the
    quotient needs the fresh symbols of the multiples (`D / (D//2)` is 2, but `D / 2` stays
    `D//2`, not `D~0`), the plain floor division says it in the user's symbols.
    """
    quotient = num // den
    if quotient * den == num:
        return quotient
    if not (num.has_division or den.has_division or num.facts or den.facts):
        return None
    en, ed = _comparable(num, den)
    quotient = en // ed
    if quotient * ed != en or quotient.has_division or any("~" in name for name in quotient.symbols):
        return None
    return quotient


def _a_factor_to_divide(e: Expr) -> tuple[str, int] | None:
    """A division of a product of symbols by a constant in `e` (`(3*B*T)//6`), as the factor that
    would make it exact and what it must be a multiple of (`B`, 2)."""
    for mono, _ in e.terms:
        for atom in mono:
            if isinstance(atom, FloorDiv) and _is_product(atom.num) and (den := atom.den.const_value) and den > 0:
                factors, coefficient = atom.num.terms[0]
                needed = den // math.gcd(den, coefficient)
                if needed > 1:
                    return str(factors[0]), needed
    return None


def without_divisions(e: Expr) -> Expr:
    """`e` with each divided symbol written as a multiple of a fresh symbol (`D - D//2` is `D~0`).

    The fresh symbols are positive where the originals are, so bounds computed on
    the result hold for `e` (`D - D//2` is at least 1).
    """
    if not e.has_division:
        return e
    (expanded,), _ = _expand([e])
    return expanded


def division_facts(e: Expr) -> list[tuple[str, Expr]]:
    """The divisibility facts an expression states: (symbol, divisor) pairs.

    `parse_raw("D//4")` gives `[("D", 4)]`; `H*(D//H)` gives `[("D", H)]`; `D//2 + D//3`
    gives `D`'s divisors 2 and 3; `(D//H)//2` gives `D`'s divisor `2*H`; `H//(H//K)`
    `H`'s divisors `K` and `H//K`.  They cover what the normal form of `e` assumes; the
    runtime checker verifies them once the symbols are bound.
    """
    found: dict[str, list[Expr]] = {}
    for name, divisor in e.facts:
        found.setdefault(name, []).append(divisor)
    _facts_of(e, None, found, sized=True)
    _canonical_and_facts(e, found)
    return [(name, divisor) for name, divisors in found.items() for divisor in divisors]


def product_divisions(e: Expr) -> list[tuple[Expr, Expr]]:
    """The divisions of a product that an expression holds, as (dividend, divisor) pairs:
    `(B*T)//6` gives `[(B*T, 6)]`.  Such a division is exact (§6) without stating which
    factor is a multiple: the product is."""
    found: list[tuple[Expr, Expr]] = []
    for mono, _ in e.terms:
        for atom in mono:
            if isinstance(atom, FloorDiv):
                if _divides_as_a_whole(atom):
                    found.append((atom.num, atom.den))
                found += product_divisions(atom.num) + product_divisions(atom.den)
    return found


class _NoSolution:
    def __repr__(self) -> str:
        return "NO_SOLUTION"


NO_SOLUTION = _NoSolution()
"""`solve_for`'s answer when no integer value can work (`2*D` given 9)."""


def solve_for(pattern: Expr, name: str, target: Expr) -> Expr | _NoSolution | None:
    """The value of `name` that makes `pattern` the size `target`, under the division rule.

    `2*D` given 10 is 5; `T + 1` given `S` is `S - 1`; `D//H` given `E` is `H*E` (D being
    a multiple of H); `2*D` given `E` is `E//2` (where the call is valid at all, E is
    even).  Works when `name`, written as a multiple of its divisors, occurs linearly;
    answers None when the value is not forced that way (or not determined), and
    `NO_SOLUTION` when a constant equation has no integer solution.  Every answer is
    checked by substituting it back.
    """
    if name not in pattern.symbols:
        return None
    (p, t), facts = _expand([pattern, target])
    # `name` may have been rewritten several times (D = 4*D~0, D~0 = 3*D~1): follow it.
    current, scale = name, const(1)
    for fact in facts:
        if fact.symbol == current:
            current, scale = fact.fresh, _mul(scale, fact.divisor)
    coefficient, rest = Expr(()), Expr(())
    for mono, coeff in p.terms:
        term = Expr(((mono, coeff),))
        power = sum(1 for a in mono if a == current)
        if power == 1:
            coefficient = _add(coefficient, Expr(((tuple(a for a in mono if a != current), coeff),)))
        elif current in term.symbols:
            return None  # not linear in it (a square, or inside a division that stayed)
        else:
            rest = _add(rest, term)
    if not coefficient.terms:
        return None
    difference = _add(t, _neg(rest))
    if _positive_monomial(coefficient) is None:
        coefficient, difference = _neg(coefficient), _neg(difference)
        if _positive_monomial(coefficient) is None:
            return None
    step = coefficient.const_value
    if step is not None:
        # Every term but the constant is a multiple of `step` here, and so is `step*name`: no
        # size solves `2*G` given `4*S - 1`, which is odd whatever S is.
        step = math.gcd(step, *(c for mono, c in difference.terms if mono))
        if sum(c for mono, c in difference.terms if not mono) % step:
            return NO_SOLUTION
    quotient = _floordiv(difference, coefficient)
    if quotient.has_division and len(difference.terms) > 1:
        return None  # exact only under a relation between symbols (`(6*S - B)//9`), not a size's divisor
    # Not exact for a one-term target (`2*D` given `E`): the call is valid only where it is
    # (E even), and there `D` is `E//2`.
    value = _collapse(_mul(scale, quotient), facts)
    value = _canonical(value)
    known = value.const_value
    if known is not None and known < 0:
        return NO_SOLUTION
    if not value.has_division and value.terms and all(c < 0 for _, c in value.terms):
        return NO_SOLUTION  # negative for every size
    if name in value.symbols or not sizes_equal(pattern.substitute({name: value}), target):
        return None
    # The answer may state divisibility itself (`E//2`), but must not need more than it and the
    # target state: `W = 45*S` solving `8*(W//60) = 6*S` holds only where 4 divides `S`.
    stated = [*division_facts(value), *division_facts(target), *division_facts(pattern)]
    if not all(_implied(fact, stated) for fact in division_facts(_substitute(pattern, {name: value}))):
        return None
    return value


def _implied(fact: tuple[str, Expr], stated: Sequence[tuple[str, Expr]]) -> bool:
    """Whether a stated fact makes `fact`'s symbol a multiple of its divisor (a divisor of a multiple)."""
    name, divisor = fact
    need = _positive_monomial(divisor)
    if need is None:
        return any(known == fact for known in stated)
    for known_name, known_divisor in stated:
        have = _positive_monomial(known_divisor)
        if known_name == name and have is not None:
            if _divide_term(tuple(have[0].elements()), have[1], need) is not None:
                return True
    return False


# -- parsing -----------------------------------------------------------------------------------------

_BINARY_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//"}


def parse(text: str) -> Expr:
    """Parse a dimension string such as `"N+M"`, `"D//4"` or `"B*T"` into normal form.

    The expression is built as the shape rules build sizes, one operation at a time, so that
    an annotation and an inferred size that mean the same size read the same: `T//H*H//2` is
    `T//2`, as `(t // h) * h // 2` computes it, and the facts of each step are kept.
    """
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


# -- sizes as written ---------------------------------------------------------------------------

@lru_cache(maxsize=1024)
def divides_as_written(text: str) -> bool:
    """Whether the text divides a name or a product of names as written (`D//4`, `(B*T)//W`), which
    states that the division is exact; `(H + 2 - K)//S` states nothing of the kind."""
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError:
        return True
    return any(
        isinstance(node, ast.BinOp) and isinstance(node.op, ast.FloorDiv) and _is_written_product(node.left)
        for node in ast.walk(tree)
    )


def _is_written_product(node: ast.expr) -> bool:
    if isinstance(node, (ast.Name, ast.Constant)):
        return True
    return isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Mult, ast.FloorDiv)) and _is_written_product(node.left) and _is_written_product(node.right)
