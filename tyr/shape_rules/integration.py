"""The trapezoidal rule along a dim: `torch.trapezoid` (`trapz`) and `torch.cumulative_trapezoid`.

Both pair each sample with the next, so a dim of `n` samples has `n - 1` intervals: `trapezoid`
sums them (the dim goes), `cumulative_trapezoid` keeps their running sums (the dim becomes
`n - 1`).  Sample points `x` are one per sample (1-d), or a tensor whose differences along the
dim broadcast with the intervals (the dim is counted from the front of both: torch's index).
"""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes
from tyr.shape_rules.core import (
    UNKNOWN,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    Unknown,
    differ,
    rank,
    show,
    show_shape,
    sizes,
    wrap_dim,
)


def _intervals(size: Size) -> Size:
    """`max(size - 1, 0)`: the intervals between `size` samples (a symbolic size is at least 1)."""
    if size is None:
        return None
    return const(0) if size.const_value == 0 else size - 1


def _integrand(y: MaybeShape, x: MaybeShape | Unknown, dim: int, op: str) -> tuple[Shape, int] | None:
    """The shape of the intervals' terms (the samples' pairs times the widths), and where the dim is."""
    if y is None or rank(y) is None:
        return None
    if rank(y) == 0:
        raise ShapeRuleError(f"{op}: the input must have at least 1 dimension, not {show_shape(y)}")
    pos = wrap_dim(dim, len(y), op, scalar_as_1d=False)
    n = sizes(y)[pos]
    terms = tuple(_intervals(s) if i == pos else s for i, s in enumerate(sizes(y)))
    if x is UNKNOWN:  # a spacing `dx`, a number
        return terms, pos
    if x is None or rank(x) is None:
        return None
    xs = sizes(x)
    if len(xs) == 1:
        if differ(xs[0], n):
            raise ShapeRuleError(
                f"{op}: x has {show(xs[0])} sample points but dim {dim} of the input {show_shape(y)} has "
                f"{show(n)} samples; there must be one per sample"
            )
        return terms, pos
    # x with fewer dims is viewed with leading 1s; either way it is cut at the input's dim index
    padded = (*(const(1),) * (len(y) - len(xs)), *xs)
    widths = tuple(_intervals(s) if i == pos else s for i, s in enumerate(padded))
    out = broadcast_shapes(terms, widths, op=op, operands=("the input's intervals", "x's intervals"))
    return None if out is None else (out, pos)


def trapezoid(y: MaybeShape, x: MaybeShape | Unknown = UNKNOWN, dim: int = -1) -> MaybeShape:
    """`torch.trapezoid(y, x, dim=dim)` / `trapezoid(y, dx=..., dim=dim)` (`x=UNKNOWN`): the integral along
    `dim`, which goes.  With no samples (`n = 0`) torch gives zeros at once, whatever `x` is."""
    op = "trapezoid"
    if y is not None and rank(y):
        pos = wrap_dim(dim, len(y), op, scalar_as_1d=False)
        n = sizes(y)[pos]
        if n is not None and n.const_value == 0:
            return tuple(s for i, s in enumerate(y) if i != pos)
        if n is None and x is not UNKNOWN:
            return None  # it may be 0, and then x is not read
    found = _integrand(y, x, dim, op)
    if found is None:
        return None
    terms, pos = found
    return tuple(s for i, s in enumerate(terms) if i != pos)


def cumulative_trapezoid(y: MaybeShape, x: MaybeShape | Unknown = UNKNOWN, dim: int = -1) -> MaybeShape:
    """`torch.cumulative_trapezoid(y, x, dim=dim)`: the running integral along `dim`, one per interval."""
    found = _integrand(y, x, dim, "cumulative_trapezoid")
    return None if found is None else found[0]
