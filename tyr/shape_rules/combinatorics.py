"""Tensors built from the elements or blocks of others: `cartesian_prod`, `combinations`, `block_diag`, `vander`, and `pdist`
(one distance per pair of rows).

The number of `r`-combinations of `n` elements is a binomial coefficient; for a symbolic
`n` it has no exact form in the size algebra (`n*(n - 1)//2` would declare `n` even,
SHAPES.md §6), so it is left unknown there, the number of columns known.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from tyr._symbolic import const
from tyr.shape_rules.core import (
    MaybeShape,
    ShapeRuleError,
    Size,
    min_rank,
    product,
    rank,
    show_shape,
    sizes,
    variadic_index,
)


def _vector(shape: MaybeShape, op: str, name: str) -> Size:
    """The length of an argument that must be 1-d; None when it is unknown."""
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) != 1 or min_rank(shape) > 1:
        raise ShapeRuleError(f"{op}: {name} must be 1-d, not {show_shape(shape)}")
    return None if variadic_index(shape) is not None else sizes(shape)[0]


def cartesian_prod(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.cartesian_prod(a, b, ...)`: 1-d tensors of lengths `n1, n2, ...` give `(n1*n2*..., k)` for
    `k` tensors; one tensor is returned as it is."""
    op = "cartesian_prod"
    if not shapes:
        raise ShapeRuleError(f"{op}: expects at least one tensor")
    lengths = [_vector(s, op, f"the tensor at position {i}") for i, s in enumerate(shapes)]
    if len(shapes) == 1:
        return (lengths[0],)
    return (product(lengths), const(len(shapes)))


def combinations(shape: MaybeShape, r: int = 2, with_replacement: bool = False) -> MaybeShape:
    """`torch.combinations(x, r, with_replacement)`: the `r`-element combinations of a 1-d tensor of `n`
    elements, as rows: `(C(n, r), r)`, with replacement `(C(n + r - 1, r), r)`; `r = 0` gives `(0,)`."""
    op = "combinations"
    if r < 0:
        raise ShapeRuleError(f"{op}: r must be non-negative, got {r}")
    n = _vector(shape, op, "the input")
    if r == 0:
        return (const(0),)
    if r == 1:
        return (n, const(1))
    return (_binomial(n, r, with_replacement), const(r))


def _binomial(n: Size, r: int, with_replacement: bool = False) -> Size:
    """The number of `r`-combinations of `n` elements (with replacement: of `n + r - 1`); None unless `n` is a
    constant."""
    count = None if n is None else n.const_value
    if count is None:
        return None
    return const(math.comb(count + r - 1, r) if with_replacement else math.comb(count, r))


def block_diag(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.block_diag(a, b, ...)`: the tensors as blocks along the diagonal of one matrix.  A block is at
    most 2-d (a 0-d tensor is `(1, 1)`, a 1-d one `(1, n)`); the result's sizes are the sums of theirs
    (`(1, 0)` for no tensors, as torch gives)."""
    op = "block_diag"
    if not shapes:
        return (const(1), const(0))
    heights: list[Size] = []
    widths: list[Size] = []
    for i, shape in enumerate(shapes):
        if shape is not None and min_rank(shape) > 2:
            raise ShapeRuleError(f"{op}: the tensor at position {i} must have at most 2 dims, not {show_shape(shape)}")
        if shape is None or variadic_index(shape) is not None:
            heights.append(None)
            widths.append(None)
            continue
        block = (const(1),) * (2 - len(shape)) + sizes(shape)  # a 0-d tensor is (1, 1), a 1-d one (1, n)
        heights.append(block[0])
        widths.append(block[1])
    return (_total(heights), _total(widths))


def _total(values: Sequence[Size]) -> Size:
    """The sum of the sizes, None when one is unknown."""
    out = const(0)
    for value in values:
        if value is None:
            return None
        out = out + value
    return out


def pdist(shape: MaybeShape) -> MaybeShape:
    """`torch.pdist(x)` / `F.pdist`: the distance of each pair of rows of an `(N, M)` input, `(N*(N - 1)/2,)`
    (unknown for a symbolic `N`, as `combinations`')."""
    if shape is None:
        return (None,)
    if rank(shape) is not None and len(shape) != 2 or min_rank(shape) > 2:
        raise ShapeRuleError(f"pdist: the input must be 2-d, not {show_shape(shape)}")
    if variadic_index(shape) is not None:
        return (None,)
    return (_binomial(sizes(shape)[0], 2),)


def vander(shape: MaybeShape, n: int | None = None) -> MaybeShape:
    """`torch.vander(x, N)`: the powers of a 1-d tensor of `k` elements as columns, `(k, N)`; `N` defaults to `k`."""
    op = "vander"
    if n is not None and n < 0:
        raise ShapeRuleError(f"{op}: N must be non-negative, got {n}")
    k = _vector(shape, op, "x")
    return (k, const(n) if n is not None else k)
