"""Shapes, sizes and the helpers every shape rule shares.

A size is an `Expr` (`tyr._symbolic`) or `None` when it is not known.  A shape is a
tuple of sizes that may hold one `Variadic` (a TypeVarTuple such as `*Batch`,
standing for any number of dims); a shape that is not known at all is `None`.

What a rule promises.  Symbols stand for positive sizes.  A rule's result holds at
every assignment of the symbols at which torch accepts the inputs, so substituting
values commutes with the rule; where the result would depend on the values, the
rule answers `None` (or a `None` size) instead of guessing.  A rule raises
`ShapeRuleError` only when the inputs are invalid for a generic assignment: sizes
with different normal forms are different sizes (`B` is not `4`, `D` is not `E`),
as mypy treats distinct type variables.  An unknown size never causes an error.
"""

from __future__ import annotations

import enum
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Union

from tyr._symbolic import Expr, FloorDiv, const, divides_symbolic_terms, sizes_differ, sizes_equal, without_divisions

Size = Union[Expr, None]
"""A dimension's size: a normal-form expression, or None when unknown."""


@dataclass(frozen=True)
class Variadic:
    """A TypeVarTuple in a shape (`*Batch`): any number of dims, each of unknown size."""

    name: str

    def __str__(self) -> str:
        return f"*{self.name}"


Shape = tuple[Union[Expr, None, Variadic], ...]
"""A tensor shape; `()` is a scalar.  At most one item is a `Variadic`."""

MaybeShape = Union[Shape, None]
"""A shape, or None when nothing is known about it (not even the number of dims)."""

SizeArg = Union[Expr, int, None]
"""A size argument as a rule accepts it: an expression, a literal int, or None (unknown)."""

Dims = Union[int, Sequence[int], None]
"""A `dim` argument: one dim, several, or None for all of them."""


class Unknown(enum.Enum):
    """An argument that is given but whose value is not known statically (an int index, a size)."""

    UNKNOWN = "?"


UNKNOWN = Unknown.UNKNOWN


class ShapeRuleError(ValueError):
    """The inputs are provably invalid for the op; the message names the dimension and both sizes."""


# -- sizes --------------------------------------------------------------------------------------


def as_size(value: SizeArg) -> Size:
    """An int becomes a constant expression; expressions and None pass through."""
    if value is None or isinstance(value, Expr):
        return value
    return const(value)


def show(size: Size | Variadic) -> str:
    """A size as messages print it: `768`, `B*T`, `?` when unknown, `*Batch`."""
    return "?" if size is None else str(size)


def show_sizes(sizes: Sequence[Size | int]) -> str:
    """A list of sizes as messages print it: `[B, 2]`."""
    return "[" + ", ".join(str(s) if isinstance(s, int) else show(s) for s in sizes) + "]"


def show_shape(shape: MaybeShape) -> str:
    if shape is None:
        return "(unknown shape)"
    return "(" + ", ".join(show(s) for s in shape) + ("," if len(shape) == 1 else "") + ")"


def const_of(size: Size) -> int | None:
    """The integer value of a constant size, else None."""
    return None if size is None else size.const_value


def is_one(size: Size) -> bool:
    return const_of(size) == 1


def never_one(size: Size) -> bool:
    """A size that is not 1 at any valid size: a constant other than 1, or a size that is at least 2
    (`T + 1`, `2*B`), symbols being at least 1."""
    return _never(size, 1)


def never_zero(size: Size) -> bool:
    """A size that is not 0 at any valid size: a constant other than 0, or a size that is at least 1
    (a product of symbols, `T - 1` is not)."""
    return _never(size, 0)


def has_elements(shape: MaybeShape) -> bool:
    """The tensor provably has elements: its number of dims is known and each size is never 0.  Size by
    size, since a product of such sizes is not 0 where its expansion (`(B//2)*(2*(B//3) - 1)`) has
    terms of either sign."""
    return shape is not None and variadic_index(shape) is None and all(never_zero(s) for s in sizes(shape))


def _never(size: Size, value: int) -> bool:
    if size is None:
        return False
    known = size.const_value
    if known is not None:
        return known != value
    low = lower_bound(size)
    return low is not None and low > value


def same(a: Size, b: Size) -> bool:
    """Both sizes are known and provably equal (SHAPES.md §6: equal under every valid assignment)."""
    return a is not None and b is not None and sizes_equal(a, b)


def differ(a: Size, b: Size) -> bool:
    """Both sizes are known and provably different: using them as one size is an error (§6)."""
    return a is not None and b is not None and sizes_differ(a, b)


def lower_bound(expr: Expr) -> int | None:
    """A lower bound on the value of `expr` when every symbol is at least 1, or None if none is evident.

    Divided symbols are multiples of their divisors (SHAPES.md §6), so `D - D//2` is `D//2`,
    at least 1.
    """
    return _lower_bound(without_divisions(expr))


def _lower_bound(expr: Expr) -> int | None:
    total = 0
    for mono, coeff in expr.terms:
        if not mono:
            total += coeff
            continue
        if coeff < 0:
            return None
        bound = 1
        for atom in mono:
            atom_bound = 1 if isinstance(atom, str) else _floordiv_lower_bound(atom)
            if atom_bound is None or atom_bound < 0:
                return None
            bound *= atom_bound
        total += coeff * bound
    return total


def _floordiv_lower_bound(atom: FloorDiv) -> int | None:
    num, den = _lower_bound(atom.num), atom.den.const_value
    if num is None or num < 0:
        return None
    if den is not None:
        return num // den if den > 0 else None
    return 0 if (_lower_bound(atom.den) or 0) >= 1 else None


def may_be_minus_one(size: Size) -> bool:
    """A symbolic size argument that is -1 at some sizes (`b - 2` at `b = 1`), where a view infers
    the dim instead.  Not one that is never negative, nor one whose terms' coefficients share a
    factor that does not divide its distance to -1 (`2*M - 8`); and a size with a division (a
    conv's output, `((T - 1)//2 - 1)//2`) is read as §6 reads it, as the size of a valid run."""
    if size is None or size.const_value is not None or size.has_division or provably_at_least(size, 0):
        return False
    constant = sum(coeff for mono, coeff in size.terms if not mono)
    step = math.gcd(*(coeff for mono, coeff in size.terms if mono))
    return (-1 - constant) % step == 0


def provably_at_least(size: Expr, bound: Expr | int) -> bool:
    """`size >= bound` for every assignment of positive values to the symbols (as far as evident)."""
    low = lower_bound(size - bound)
    return low is not None and low >= 0


def divide_size(size: Expr, offset: Expr | int, divisor: int) -> Expr:
    """`(size + offset) // divisor`, a size divided by a stride, a step or a number of chunks.

    A strided convolution or slice divides its input's size (SHAPES.md §6: `h // 2` after a
    stride-2 convolution).  A size that is one product of symbols (`H`, `B*T`) is a multiple of
    the divisor and the result is `size // divisor + offset // divisor`.  Anything else (`B + 1`,
    a size already divided, `H//2`) is divided as written: a second stride-2 convolution of
    `H//2` gives `(H//2 + 1)//2`, torch's size for every even `H` (at `H = 6` it is 2, where
    `H//4` would be 1).  Where `H//4` is written, the facts of both say they are one size.
    """
    value = offset.const_value if isinstance(offset, Expr) else offset
    one_product = len(size.terms) == 1 and size.terms[0][1] > 0 and bool(size.terms[0][0])
    one_product = one_product and all(isinstance(atom, str) for atom in size.terms[0][0])
    if not one_product or value is None or divisor <= 0:
        return (size + offset) // divisor
    return size // divisor + value // divisor


def divide_with_offset(size: Expr, offset: Expr | int, divisor: Expr | int) -> Size:
    """`(size + offset) // divisor` where the offset is no size being divided: a kernel, a padding or
    a start (`(H - K)//2` of a stride-2 convolution with kernel `K`, `x[k::2]`).

    Nothing says such a symbol is a multiple of the divisor (a kernel is usually odd), so the
    division rule may not make it one: the result is unknown (None) unless the divisor divides
    each of the offset's terms with a symbol (`2*P - 3` by 2; `-P` by a stride `P`, a patch
    embedding's `(I - P)//P`, which is `I//P`).
    """
    off, div = as_size(offset), as_size(divisor)
    assert off is not None and div is not None
    if not divides_symbolic_terms(div, off):
        return None
    value = div.const_value
    if value is not None:
        return divide_size(size, off, value)
    return (size + off) // div


def product(sizes: Sequence[Size]) -> Size:
    """The product of the sizes, or None when any is unknown."""
    total = const(1)
    for size in sizes:
        if size is None:
            return None
        total = total * size
    return total


# -- shapes -------------------------------------------------------------------------------------


def variadic_index(shape: Shape) -> int | None:
    """Where the shape's `Variadic` is, or None when it has none."""
    for i, item in enumerate(shape):
        if isinstance(item, Variadic):
            return i
    return None


def rank(shape: Shape) -> int | None:
    """The number of dims, or None when a `Variadic` leaves it open."""
    return None if variadic_index(shape) is not None else len(shape)


def min_rank(shape: Shape) -> int:
    """The fewest dims the shape can have (a `Variadic` may be empty)."""
    return len(shape) - (variadic_index(shape) is not None)


def sizes(shape: Shape) -> tuple[Size, ...]:
    """The sizes of a shape known to have no `Variadic`."""
    out: list[Size] = []
    for item in shape:
        assert not isinstance(item, Variadic), "sizes() of a shape with a Variadic"
        out.append(item)
    return tuple(out)


def same_shape(a: Shape, b: Shape) -> bool | None:
    """Whether two shapes are equal: True or False where that is proved, None where it depends on the sizes."""
    if variadic_index(a) is not None or variadic_index(b) is not None:
        return True if a == b else None
    if len(a) != len(b) or any(map(differ, sizes(a), sizes(b))):
        return False
    return True if all(map(same, sizes(a), sizes(b))) else None


def fill_value(value: MaybeShape, op: str) -> None:
    """The value of a fill (`fill_`, `index_fill`, `masked_fill`) is a number or a 0-d tensor: torch refuses
    a tensor of any other number of dims, even one of one element (`torch.ones(1)`)."""
    if value is not None and min_rank(value) > 0:
        raise ShapeRuleError(f"{op}: the value must be a number or a 0-d tensor, not a tensor of shape {show_shape(value)}")


def numel(shape: Shape) -> Size:
    """The number of elements, or None when a size or the number of dims is unknown."""
    if variadic_index(shape) is not None:
        return None
    return product(sizes(shape))


def wrap_dim(dim: int, ndim: int, op: str, *, scalar_as_1d: bool = True) -> int:
    """A dim index in `[0, ndim)`, counting negative indices from the end, as torch's `maybe_wrap_dim`.

    A 0-d tensor takes dims 0 and -1 where `scalar_as_1d` (most ops); otherwise it has none.
    """
    span = max(ndim, 1) if scalar_as_1d else ndim
    if not -span <= dim < span:
        if span == 0:
            raise ShapeRuleError(f"{op}: dimension {dim} given for a 0-d tensor, which has no dimensions")
        raise ShapeRuleError(
            f"{op}: dimension {dim} is out of range for a {ndim}-d tensor (expected {-span} to {span - 1})"
        )
    return dim + span if dim < 0 else dim


def locate(shape: Shape, dim: int, op: str, *, extra: int = 0, scalar_as_1d: bool = True) -> int | None:
    """The position in `shape` of dim index `dim`, or None when it falls inside or past a `Variadic`.

    `extra` widens the valid range for ops that index a result one dim longer
    (`unsqueeze`, `stack`): position `len(shape)` is then valid.  Raises when there is no
    `Variadic` and the index is out of range (with one, every index fits some length).
    """
    v = variadic_index(shape)
    if v is None:
        return wrap_dim(dim, len(shape) + extra, op, scalar_as_1d=scalar_as_1d)
    if dim >= 0:
        return dim if dim < v + extra else None
    from_end = -dim  # 1 is the last position
    suffix = len(shape) + extra - v - 1
    return len(shape) + extra + dim if from_end <= suffix else None


def distinct_positions(shape: Shape, dims: Sequence[int], op: str, *, scalar_as_1d: bool = True) -> list[int | None]:
    """Each dim's position in `shape` (None inside a Variadic); raises on a dim out of range or named twice
    (two dims at one position of the shape are one dim, Variadic or not)."""
    positions = [locate(shape, d, op, scalar_as_1d=scalar_as_1d) for d in dims]
    seen: set[int] = set()
    for d, p in zip(dims, positions):
        if p in seen:
            raise ShapeRuleError(f"{op}: dim {d} appears more than once in {tuple(dims)}")
        if p is not None:
            seen.add(p)
    return positions


def describe_dim(shape: Shape, pos: int) -> str:
    """How a message names the dim at tuple position `pos`: its index, from the end past a `Variadic`."""
    v = variadic_index(shape)
    if v is not None and pos > v:
        return str(pos - len(shape))
    return str(pos)


def dims_argument(dim: Dims) -> tuple[int, ...] | None:
    """Normalise a `dim` argument to a tuple of ints (None stays None)."""
    if dim is None:
        return None
    if isinstance(dim, int):
        return (dim,)
    return tuple(dim)


def mismatch(op: str, first: str, pos_a: str, a: Size, second: str, pos_b: str, b: Size) -> ShapeRuleError:
    """The standard message: which dim of which operand, and both sizes."""
    return ShapeRuleError(
        f"{op}: dimension {pos_a} of {first} ({show(a)}) does not match dimension {pos_b} of {second} ({show(b)})"
    )
