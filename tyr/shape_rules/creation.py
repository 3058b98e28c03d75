"""Creation functions: `randn`/`rand`/`zeros`/`ones`/`empty`/`full`/`randint(size=...)`, `arange`, `range`, `linspace`,
`eye`, the windows (`hann_window`, ...)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from tyr._symbolic import Expr, const
from tyr.shape_rules.core import (
    MaybeShape,
    ShapeRuleError,
    Size,
    SizeArg,
    Unknown,
    Variadic,
    as_size,
    const_of,
    divide_size,
    divide_with_offset,
    lower_bound,
    min_rank,
    same,
    show,
    show_shape,
    variadic_index,
)


def from_sizes(sizes: Sequence[SizeArg], op: str = "zeros") -> MaybeShape:
    """`torch.randn(*sizes)`, `rand`, `zeros`, `ones`, `empty`, `full(sizes, value)`, `randint(low, high, sizes)`:
    the shape is `sizes` (a `Dim` keeps its symbol).  No size may be negative."""
    out = tuple(as_size(s) for s in sizes)
    for i, s in enumerate(out):
        value = const_of(s)
        if value is not None and value < 0:
            raise ShapeRuleError(f"{op}: size {value} at index {i} is negative")
    return out


Number = int | float | Expr | Unknown
"""An `arange` bound: a literal, a symbolic int (a `Dim`) or a value not known statically."""


def arange(start: Number, end: Number | None = None, step: Number = 1) -> MaybeShape:
    """`torch.arange(end)` / `arange(start, end, step)`: `(ceil((end - start) / step),)`.

    The step must not be 0 and must point from `start` towards `end` (or `start == end`).
    `arange(n)` with `n: Dim[N]` is `(N,)`; `arange(0, n, 2)` is `((N + 1)//2,)`.
    """
    if end is None:
        start, end = 0, start
    if isinstance(step, (int, float)) and not isinstance(step, bool) and step == 0:
        raise ShapeRuleError("arange: step must be nonzero")
    known: list[int | float | Expr] = []
    for x in (start, end, step):
        if isinstance(x, Unknown):
            return (None,)
        known.append(x)
    if any(isinstance(x, float) for x in known):
        values: list[float] = []
        for x in known:
            value = x.const_value if isinstance(x, Expr) else x
            if value is None:
                return (None,)
            values.append(float(value))
        return (_checked_count(*values),)
    a, b, s = (x if isinstance(x, Expr) else const(int(x)) for x in known)
    s_value = s.const_value
    if s_value == 0:
        raise ShapeRuleError("arange: step must be nonzero")
    span = b - a
    if s_value is None:
        return (None,)
    if span.const_value is not None:
        return (_checked_count(0, span.const_value, s_value),)
    oriented = span if s_value > 0 else -span
    low_against = lower_bound(-oriented)
    if low_against is not None and low_against >= 1:
        raise ShapeRuleError(f"arange: the step {s_value} points away from end ({show(b)}) starting at {show(a)}")
    # Where the span may point either way (`arange(3, d)`), torch refuses the sizes where it points
    # away: wherever there is a result, the span is at least 0, and this is its length.
    step_size = abs(s_value)
    start, end = (a, b) if s_value > 0 else (b, a)
    if start.const_value is not None:  # arange(0, hd, 2): hd divided by 2
        return (divide_size(end, step_size - 1 - start.const_value, step_size),)
    return (divide_with_offset(end, step_size - 1 - start, step_size),)  # `arange(k, n, 2)`: `k` may be odd


def _checked_count(start: float, end: float, step: float) -> Size:
    if step == 0:
        raise ShapeRuleError("arange: step must be nonzero")
    if (end - start) * step < 0:
        raise ShapeRuleError(f"arange: the step {step} points away from end ({end}) starting at {start}")
    return const(math.ceil((end - start) / step))


def inclusive_range(start: Number, end: Number, step: Number = 1) -> MaybeShape:
    """`torch.range(start, end, step)` (deprecated): `end` included, `(floor((end - start) / step) + 1,)`, counted
    in floats as torch does; unknown unless all three are literals."""
    values = [x for x in (start, end, step) if isinstance(x, (int, float))]
    if len(values) < 3:
        return (None,)
    a, b, s = (float(x) for x in values)
    if s == 0:
        raise ShapeRuleError("range: step must be nonzero")
    if b < a if s > 0 else b > a:  # (as torch compares them: `(b - a) * s` underflows to 0 for denormal gaps)
        raise ShapeRuleError(f"range: the step {values[2]} points away from end ({values[1]}) starting at {values[0]}")
    return (const(int((b - a) / s + 1)),)


def _length(size: SizeArg, what: str, op: str) -> MaybeShape:
    """`(size,)`, a 1-d length that must not be negative."""
    count = as_size(size)
    value = const_of(count)
    if value is not None and value < 0:
        raise ShapeRuleError(f"{op}: {what} must be non-negative, got {value}")
    return (count,)


def linspace(steps: SizeArg, op: str = "linspace") -> MaybeShape:
    """`torch.linspace(start, end, steps)` / `logspace`: `(steps,)`; `steps` must not be negative."""
    return _length(steps, "the number of steps", op)


def window(window_length: SizeArg, op: str = "hann_window") -> MaybeShape:
    """`torch.hann_window(window_length)`, `hamming_window`, `blackman_window`, `bartlett_window`, `kaiser_window`:
    `(window_length,)`, periodic or not; the length must not be negative."""
    return _length(window_length, "window_length", op)


def eye(n: SizeArg, m: SizeArg = None, *, has_m: bool = False) -> MaybeShape:
    """`torch.eye(n, m)`: `(n, m)`, or `(n, n)` without `m` (`has_m=True` when `m` is given but unknown)."""
    rows = as_size(n)
    cols = as_size(m) if m is not None or has_m else rows
    for size in (rows, cols):
        value = const_of(size)
        if value is not None and value < 0:
            raise ShapeRuleError(f"eye: sizes must be non-negative, got {value}")
    return (rows, cols)


def meshgrid(shapes: Sequence[MaybeShape], indexing: str = "ij") -> tuple[MaybeShape, ...]:
    """`torch.meshgrid(*tensors, indexing=...)`: one tensor per input, each of shape `(n_1, ..., n_k)`.

    Each input is 0-d (one element) or 1-d (`n_i` elements); with `indexing="xy"` the first
    two sizes trade places.
    """
    if indexing not in ("ij", "xy"):
        raise ShapeRuleError(f"meshgrid: indexing must be 'ij' or 'xy', not {indexing!r}")
    if not shapes:
        raise ShapeRuleError("meshgrid: expects a non-empty list of tensors")
    grid: list[Size] = []
    known = True
    for i, shape in enumerate(shapes):
        if shape is None:
            grid.append(None)
            continue
        if min_rank(shape) > 1:
            raise ShapeRuleError(f"meshgrid: tensor {i} {show_shape(shape)} must be 0-d or 1-d")
        if variadic_index(shape) is not None:
            known = False
            grid.append(None)
            continue
        item = shape[0] if shape else const(1)
        assert not isinstance(item, Variadic)
        grid.append(item)
    if indexing == "xy" and len(grid) >= 2:
        grid[0], grid[1] = grid[1], grid[0]
    return tuple(tuple(grid) if known else None for _ in shapes)


def tri_indices(row: SizeArg, col: SizeArg, offset: int = 0, *, upper: bool = False) -> MaybeShape:
    """`torch.tril_indices(row, col, offset)` / `triu_indices`: `(2, count)`, the count of the triangle's elements.

    Counted for constant sizes, and for a square `N x N` with an offset of -1, 0 or 1; else unknown.
    """
    op = "triu_indices" if upper else "tril_indices"
    r, c = as_size(row), as_size(col)
    for name, s in (("row", r), ("col", c)):
        if (const_of(s) or 0) < 0:
            raise ShapeRuleError(f"{op}: {name} must be non-negative, got {show(s)}")
    rv, cv = const_of(r), const_of(c)
    if rv is not None and cv is not None:
        if upper:
            count = sum(max(0, cv - max(0, i + offset)) for i in range(rv))
        else:
            count = sum(max(0, min(cv, i + offset + 1)) for i in range(rv))
        return (const(2), const(count))
    if r is None or c is None or not same(r, c) or offset not in (-1, 0, 1):
        return (const(2), None)
    half = r * (r + 1) // 2  # the triangle with its diagonal
    below = offset if not upper else -offset  # the diagonals added (1) or removed (-1) beyond it
    return (const(2), half + (r - 1 if below == 1 else 0) - (r if below == -1 else 0))
