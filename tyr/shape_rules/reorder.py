"""Moving elements and dims around: `flip`, `roll`, `rot90`, `movedim`, `narrow`, `select`, `diagonal`, the views
`select_scatter` / `slice_scatter` / `diagonal_scatter` fill, `diag`, `diagflat`,
`diag_embed`, `diff`, `Tensor.unfold`, `repeat_interleave`, `tile`, `pixel_shuffle` / `pixel_unshuffle`,
`channel_shuffle`, `view_as_complex` / `view_as_real`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Union

from tyr._symbolic import Expr, const
from tyr.shape_rules.core import (
    UNKNOWN,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Unknown,
    Variadic,
    as_size,
    const_of,
    differ,
    distinct_positions,
    divide_with_offset,
    has_elements,
    locate,
    lower_bound,
    min_rank,
    never_zero,
    numel,
    rank,
    show,
    show_shape,
    sizes,
    variadic_index,
    wrap_dim,
)
from tyr.shape_rules.index import Bound, slice_length
from tyr.shape_rules.view import repeat


def flip(shape: MaybeShape, dims: Sequence[int], *, op: str = "flip") -> MaybeShape:
    """`x.flip(dims)`: the same shape; every dim in range and named once (a 0-d tensor takes 0 and -1)."""
    if shape is not None:
        distinct_positions(shape, dims, op)
    return shape


def flip_lr(shape: MaybeShape, *, up_down: bool = False) -> MaybeShape:
    """`torch.fliplr(x)` (at least 2-d) / `torch.flipud(x)` (at least 1-d): the same shape."""
    op, least = ("flipud", 1) if up_down else ("fliplr", 2)
    if shape is not None and rank(shape) is not None and len(shape) < least:
        raise ShapeRuleError(f"{op}: the input {show_shape(shape)} must have at least {least} dims")
    return shape


Ints = Union[int, Unknown, Sequence[Union[int, Unknown]]]
"""An int argument or a sequence of ints, each of which may be `UNKNOWN` (an int of unknown value); the
argument `UNKNOWN` itself is a sequence of unknown length."""


def _items(arg: Ints) -> tuple[int | Unknown, ...] | None:
    """The ints of an `Ints` argument; None when their number is unknown."""
    if isinstance(arg, Unknown):
        return None
    return (arg,) if isinstance(arg, int) else tuple(arg)


def roll(shape: MaybeShape, shifts: Ints, dims: Ints | None = None) -> MaybeShape:
    """`x.roll(shifts, dims)`: the same shape, whatever the shifts are.

    Without `dims` the flattened tensor rolls by one shift; with them, one shift per dim
    (dims may repeat; a 0-d tensor has none; torch checks them only for a tensor with elements).
    A number of shifts or dims that is unknown, and a dim that is `UNKNOWN`, go unchecked.
    """
    counts, wanted = _items(shifts), () if dims is None else _items(dims)
    if counts is not None and wanted is not None:
        if not wanted and not counts:
            raise ShapeRuleError("roll: `shifts` required")
        if not wanted and len(counts) != 1:
            raise ShapeRuleError(f"roll: {len(counts)} shifts for a flattened tensor, which takes one")
        if wanted and len(counts) != len(wanted):
            raise ShapeRuleError(f"roll: {len(counts)} shifts for {len(wanted)} dims; give one shift per dim")
    if wanted and shape is not None and has_elements(shape):  # torch returns an empty tensor unchecked
        for d in wanted:
            if isinstance(d, int):
                locate(shape, d, "roll", scalar_as_1d=False)
    return shape


def rot90(shape: MaybeShape, k: int = 1, dims: Sequence[int] = (0, 1)) -> MaybeShape:
    """`torch.rot90(x, k, dims)`: an odd number of quarter turns swaps the two dims."""
    op = "rot90"
    if len(dims) != 2:
        raise ShapeRuleError(f"rot90: expected two dims to rotate in, got {len(dims)}")
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) < 2:
        raise ShapeRuleError(f"rot90: the input {show_shape(shape)} must have at least 2 dims")
    a, b = (locate(shape, d, op) for d in dims)
    r = rank(shape)
    if r is not None:
        assert a is not None and b is not None
        if a == b:
            raise ShapeRuleError(f"rot90: the dims {tuple(dims)} to rotate in must differ")
    if k % 2 == 0:
        return shape
    if a is None or b is None or a == b:
        return None
    out = list(shape)
    out[a], out[b] = shape[b], shape[a]
    return tuple(out)


def movedim(shape: MaybeShape, source: int | Sequence[int], destination: int | Sequence[int]) -> MaybeShape:
    """`x.movedim(source, destination)`: the dims `source` move to `destination`, the rest keep their order."""
    op = "movedim"
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise ShapeRuleError(f"{op}: {len(src)} source dims but {len(dst)} destination dims")
    if shape is None:
        return None
    if variadic_index(shape) is not None:
        distinct_positions(shape, src, op)
        distinct_positions(shape, dst, op)
        return None
    n = len(shape)
    s = [wrap_dim(d, n, op) for d in src]
    t = [wrap_dim(d, n, op) for d in dst]
    for name, wrapped, given in (("source", s, src), ("destination", t, dst)):
        if len(set(wrapped)) != len(wrapped):
            raise ShapeRuleError(f"{op}: a dim repeats in the {name} {given}")
    moved = dict(zip(t, s))
    rest = iter(i for i in range(n) if i not in s)
    return tuple(shape[moved[j]] if j in moved else shape[next(rest)] for j in range(n))


def narrow(shape: MaybeShape, dim: int, start: SizeArg, length: SizeArg, *, op: str = "narrow") -> MaybeShape:
    """`x.narrow(dim, start, length)`: dim `dim` becomes `length` long.

    `start` may count from the end (`-size <= start <= size`) and `start + length` may not pass
    the end; `length` is not negative.  A 0-d tensor cannot be narrowed.
    """
    n, first = as_size(length), as_size(start)
    if n is not None and (const_of(n) or 0) < 0:
        raise ShapeRuleError(f"{op}: length must be non-negative, got {show(n)}")
    found = _dim_of(shape, dim, op, "a 0-d tensor cannot be narrowed")
    if found is None:
        return None
    before, size, after = found
    low = lower_bound(first) if first is not None else None
    if size is not None and first is not None and (low is not None and low >= 0 or _negative(first)):
        begin = first + size if _negative(first) else first
        if _negative(size - begin) or _negative(begin) or (n is not None and _negative(size - begin - n)):
            raise ShapeRuleError(
                f"{op}: start {show(first)} and length {show(n)} do not fit in dimension {dim} of size {show(size)}"
            )
    return (*before, n, *after)


def select(shape: MaybeShape, dim: int, index: SizeArg, *, op: str = "select") -> MaybeShape:
    """`x.select(dim, index)`: dim `dim` is removed (as `x[:, index]` removes dim 1).

    `index` may count from the end (`-size <= index < size`); a 0-d tensor has no dim to select.
    """
    found = _dim_of(shape, dim, op, "a 0-d tensor has no dimension to select from")
    if found is None:
        return None
    (before, size, after), i = found, as_size(index)
    if size is not None and i is not None and (_negative(i + size) or _negative(size - i - 1)):
        raise ShapeRuleError(f"{op}: index {show(i)} is out of range for dimension {dim} of size {show(size)}")
    return (*before, *after)


def _dim_of(shape: MaybeShape, dim: int, op: str, zero_d: str) -> tuple[Shape, Size, Shape] | None:
    """The dims before dim `dim` of `shape`, its size and the dims after, for an op on one dim
    (`narrow`, `select`, a slice); None where that is unknown.  A 0-d tensor has no dim: the
    error `zero_d`."""
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: {zero_d}")
    pos = locate(shape, dim, op)
    if pos is None:
        return None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    return shape[:pos], size, shape[pos + 1 :]


def _negative(e: Expr) -> bool:
    """`e < 0` for every positive value of the symbols."""
    low = lower_bound(-e)
    return low is not None and low >= 1


def diagonal(shape: MaybeShape, offset: int = 0, dim1: int = 0, dim2: int = 1, *, op: str = "diagonal") -> MaybeShape:
    """`x.diagonal(offset, dim1, dim2)`: the two dims are removed and the diagonal's length appended.

    The length is `max(min(n1, n2 - offset), 0)` for `offset >= 0` and `max(min(n1 + offset, n2), 0)`
    otherwise (where it is not evident, unknown).
    """
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) < 2:
        raise ShapeRuleError(f"{op}: the input {show_shape(shape)} must have at least 2 dims")
    a, b = locate(shape, dim1, op), locate(shape, dim2, op)
    if rank(shape) is not None and a == b:
        raise ShapeRuleError(f"{op}: the two dims must differ, got {dim1} and {dim2}")
    if a is None or b is None:
        return None
    n1, n2 = shape[a], shape[b]
    assert not isinstance(n1, Variadic) and not isinstance(n2, Variadic)
    length = None
    if n1 is not None and n2 is not None:
        first, second = (n1, n2 - offset) if offset >= 0 else (n1 + offset, n2)
        length = _clamped_min(first, second)
    return (*(s for i, s in enumerate(shape) if i not in (a, b)), length)


def slice_along(
    shape: MaybeShape, dim: int, start: Bound = None, end: Bound = None, step: Bound = 1, *, op: str = "slice"
) -> MaybeShape:
    """`x[..., start:end:step]` with the slice at dim `dim` (the view `slice_scatter` fills): the dim becomes
    the slice's length.  The step must be positive; a 0-d tensor has no dim to slice."""
    steps = const_of(as_size(step)) if isinstance(step, (int, Expr)) else None
    if steps is not None and steps <= 0:
        raise ShapeRuleError(f"{op}: the step must be positive, not {steps}")
    found = _dim_of(shape, dim, op, "a 0-d tensor has no dimension to slice")
    if found is None:
        return None
    before, size, after = found
    return (*before, slice_length(size, slice(start, end, step)), *after)


def scatter_view(input: MaybeShape, src: MaybeShape, view: MaybeShape, *, op: str) -> MaybeShape:
    """`select_scatter`, `slice_scatter`, `diagonal_scatter`: `src` written into a view of the input, `view`
    its shape (`select`'s, `slice_along`'s, `diagonal`'s); the input's shape.  torch takes a `src` of
    exactly the view's shape, not one that broadcasts to it."""
    if view is None or src is None or variadic_index(view) is not None or variadic_index(src) is not None:
        return input
    if len(src) != len(view) or any(map(differ, sizes(src), sizes(view))):
        raise ShapeRuleError(f"{op}: src {show_shape(src)} must have the shape of the part it fills, {show_shape(view)}")
    return input


def _clamped_min(a: Expr, b: Expr) -> Size:
    """`max(min(a, b), 0)` where evident."""
    low_ab, low_ba = lower_bound(b - a), lower_bound(a - b)
    smaller = a if low_ab is not None and low_ab >= 0 else b if low_ba is not None and low_ba >= 0 else None
    return None if smaller is None else _clamped(smaller)


def _clamped(size: Expr) -> Size:
    """`max(size, 0)` where evident."""
    if _negative(size):
        return const(0)
    low = lower_bound(size)
    return size if low is not None and low >= 0 else None


def diag(shape: MaybeShape, offset: int = 0) -> MaybeShape:
    """`torch.diag(x, offset)` (torch calls it `diagonal`): a 1-d `(N,)` becomes the square matrix `(N + |k|, N + |k|)`; a 2-d
    tensor gives its `k`-th diagonal (as `x.diagonal(k)`).  Other numbers of dims are an error."""
    if shape is None:
        return None
    if min_rank(shape) > 2 or rank(shape) == 0:
        raise ShapeRuleError(f"diag: expects a 1-d or 2-d tensor, not {show_shape(shape)}")
    if rank(shape) is None:
        return None
    if len(shape) == 2:
        return _renamed(lambda: diagonal(shape, offset), "diagonal", "diag")
    (size,) = sizes(shape)
    side = None if size is None else size + abs(offset)
    return (side, side)


def diagflat(shape: MaybeShape, offset: int = 0) -> MaybeShape:
    """`torch.diagflat(x, offset)`: the flattened input on a diagonal, `(n + |k|, n + |k|)` for `n` elements."""
    total = None if shape is None else numel(shape)
    side = None if total is None else total + abs(offset)
    return (side, side)


def diag_embed(shape: MaybeShape, offset: int = 0, dim1: int = -2, dim2: int = -1) -> MaybeShape:
    """`torch.diag_embed(x, offset, dim1, dim2)`: the last dim `N` becomes two dims of `N + |offset|`, at
    `dim1` and `dim2` of the result (which has one dim more)."""
    op = "diag_embed"
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: expects a tensor with at least 1 dimension, not a 0-d one")
    if rank(shape) is None:
        return None
    n = len(shape) + 1
    first, second = wrap_dim(dim1, n, op), wrap_dim(dim2, n, op)
    if first == second:
        raise ShapeRuleError(f"{op}: the two dims must differ, got {dim1} and {dim2}")
    last = shape[-1]
    assert not isinstance(last, Variadic)
    side = None if last is None else last + abs(offset)
    out: list[Size | Variadic] = list(shape[:-1])
    for pos in sorted((first, second)):
        out.insert(pos, side)
    return tuple(out)


def diff(
    shape: MaybeShape, n: int = 1, dim: int = -1, prepend: MaybeShape | Unknown = UNKNOWN, append: MaybeShape | Unknown = UNKNOWN
) -> MaybeShape:
    """`torch.diff(x, n, dim, prepend, append)`: `n`-th differences along `dim`, of `x` with `prepend` and
    `append` joined at its ends (each with as many dims, equal sizes off `dim`).  Dim `dim`
    shrinks by `n`, to no less than 0; `n = 0` returns `x` itself.  `prepend` / `append` are
    `UNKNOWN` when not given (None is a tensor of unknown shape)."""
    op = "diff"
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: expects a tensor with at least 1 dimension, not a 0-d one")
    if n < 0:
        raise ShapeRuleError(f"{op}: the order n must be non-negative, got {n}")
    ends = [(e, name) for e, name in ((prepend, "prepend"), (append, "append")) if not isinstance(e, Unknown)]
    if not ends and n == 0:
        return shape  # torch returns the input before looking at `dim`
    pos = locate(shape, dim, op)
    size = None if pos is None else shape[pos]
    assert not isinstance(size, Variadic)
    for extra, name in ends:
        if extra is None or rank(extra) is None or rank(shape) is None:
            size = None
            continue
        if len(extra) != len(shape):
            raise ShapeRuleError(
                f"{op}: {name} {show_shape(extra)} must have as many dims as the input {show_shape(shape)}"
            )
        assert pos is not None
        whole, other = sizes(shape), sizes(extra)
        for j, (a, b) in enumerate(zip(whole, other)):
            if j != pos and differ(a, b):
                raise ShapeRuleError(
                    f"{op}: {name} {show_shape(extra)} must match the input {show_shape(shape)} in every dim but {dim}"
                )
        added = other[pos]
        size = None if size is None or added is None else size + added
    if n == 0:
        return shape
    if pos is None:
        return None
    return (*shape[:pos], None if size is None else _clamped(size - n), *shape[pos + 1 :])


def _renamed(rule: Callable[[], MaybeShape], old: str, new: str) -> MaybeShape:
    """Run `rule`, its error messages naming the op the user called."""
    try:
        return rule()
    except ShapeRuleError as err:
        raise ShapeRuleError(str(err).replace(f"{old}:", f"{new}:", 1)) from None


def unfold(shape: MaybeShape, dim: int, size: SizeArg, step: SizeArg) -> MaybeShape:
    """`x.unfold(dim, size, step)`: windows of `size` every `step` along `dim`, as a new last dim.

    Dim `dim` becomes the number of windows, `(n - size) // step + 1`; `size` may not exceed
    `n` and `step` is positive.  A 0-d tensor is taken as one element.
    """
    op = "unfold"
    window, stride = as_size(size), as_size(step)
    if (const_of(stride) or 0) < 0 or const_of(stride) == 0:
        raise ShapeRuleError(f"{op}: step must be positive, got {show(stride)}")
    if window is not None and (const_of(window) or 0) < 0:
        raise ShapeRuleError(f"{op}: size must be non-negative, got {show(window)}")
    if shape is None:
        return None
    pos = locate(shape, dim, op)
    if pos is None:
        return None
    if not shape:
        if (const_of(window) or 0) > 1:
            raise ShapeRuleError(f"{op}: a 0-d tensor holds one element, not windows of {show(window)}")
        return (window,)
    n = shape[pos]
    assert not isinstance(n, Variadic)
    count: Size = None
    if n is not None and window is not None:
        if _negative(n - window):
            raise ShapeRuleError(f"{op}: windows of {show(window)} do not fit in dimension {dim} of size {show(n)}")
        if stride is not None:
            count = divide_with_offset(n, -window, stride)  # windows `P` every `P`: `N//P`; of `K` every 2: unknown
            count = None if count is None else count + 1
    return (*shape[:pos], count, *shape[pos + 1 :], window)


def repeat_interleave(
    shape: MaybeShape, repeats: SizeArg, dim: int | None = None, output_size: SizeArg = None
) -> MaybeShape:
    """`x.repeat_interleave(repeats, dim)` with an int `repeats`: each element `repeats` times along `dim`.

    Without `dim` the tensor is flattened first.  (A tensor of repeats gives sizes that are
    values: pass None.)  `output_size`, when given, is the size of the repeated dim, and must
    agree with it.
    """
    op = "repeat_interleave"
    count = as_size(repeats)
    if count is not None and (const_of(count) or 0) < 0:
        raise ShapeRuleError(f"{op}: repeats must be non-negative, got {show(count)}")
    out = _repeat_interleave(shape, count, dim, op)
    wanted = as_size(output_size)
    if out is None or wanted is None:
        return out
    pos = -1 if dim is None else locate(out, dim, op)
    if pos is None:
        return out
    got = out[pos]
    assert not isinstance(got, Variadic)
    if differ(got, wanted):
        raise ShapeRuleError(f"{op}: output_size {show(wanted)} given for a repeated dim of size {show(got)}")
    return (*out[:pos], wanted, *out[pos + 1 :]) if pos != -1 else (*out[:-1], wanted)


def repeat_interleave_by(
    shape: MaybeShape, repeats: MaybeShape, dim: int | None = None, output_size: SizeArg = None
) -> MaybeShape:
    """`x.repeat_interleave(repeats, dim)` with a tensor of repeats: 0-d, or 1-d with one count for all
    the elements along `dim` (of the flattened tensor, without `dim`) or one each.  The repeated size
    is the counts' sum, a value: unknown, or `output_size` when given."""
    op = "repeat_interleave"
    if repeats is not None and rank(repeats) is not None and len(repeats) > 1:
        raise ShapeRuleError(f"{op}: repeats must be a 0-d or 1-d tensor, not {show_shape(repeats)}")
    out = _repeat_interleave(shape, None, dim, op)
    if out is None or shape is None:
        return out
    pos = None if dim is None else locate(shape, dim, op)
    along = numel(shape) if dim is None else shape[pos] if pos is not None else None
    count = repeats[0] if repeats is not None and rank(repeats) == 1 else None
    assert not isinstance(along, Variadic) and not isinstance(count, Variadic)
    if along is not None and count is not None and differ(count, along) and differ(count, const(1)):
        where = "the flattened input's" if dim is None else f"dimension {dim}'s"
        raise ShapeRuleError(f"{op}: {show(count)} repeats for {where} {show(along)} elements (one each, or one for all)")
    wanted = as_size(output_size)
    if wanted is None or along is None or not never_zero(along):  # (of no elements, torch ignores output_size)
        return out
    if pos is None:  # (without `dim`: the flattened input)
        return (wanted,)
    return (*out[:pos], wanted, *out[pos + 1 :])


def _repeat_interleave(shape: MaybeShape, count: Size, dim: int | None, op: str) -> MaybeShape:
    if shape is None:
        return None
    if dim is None:
        total = numel(shape)
        return (None if total is None or count is None else total * count,)
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: a 0-d tensor has no dimension {dim} (repeat it without a dim)")
    pos = locate(shape, dim, op)
    if pos is None:
        return None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    return (*shape[:pos], None if size is None or count is None else size * count, *shape[pos + 1 :])


def tile(shape: MaybeShape, reps: Sequence[SizeArg]) -> MaybeShape:
    """`x.tile(reps)`: `repeat` after padding `reps` with leading 1s to the tensor's number of dims."""
    counts = [as_size(r) for r in reps]
    if shape is None:
        return None
    r = rank(shape)
    if r is None:
        return None  # whether `reps` is padded depends on the Variadic's length
    ones: list[Size] = [const(1)] * (r - len(counts))
    return repeat(shape, ones + counts)


def pixel_shuffle(shape: MaybeShape, factor: int, *, inverse: bool = False) -> MaybeShape:
    """`F.pixel_shuffle(x, r)`: `(*, C*r*r, H, W)` to `(*, C, H*r, W*r)`; `pixel_unshuffle` the other way.

    The channels (for the shuffle) or the height and width (for the unshuffle) must divide by
    `r` (`r*r`); `r` is positive.  (torch's unshuffle returns an empty tensor as it is.)
    """
    op = "pixel_unshuffle" if inverse else "pixel_shuffle"
    if factor <= 0:
        raise ShapeRuleError(f"{op}: the factor must be positive, got {factor}")
    if shape is None:
        return None
    if min_rank(shape) < 3 and rank(shape) is not None:
        raise ShapeRuleError(f"{op}: the input {show_shape(shape)} must have at least 3 dims (*, C, H, W)")
    v = variadic_index(shape)
    if v is not None and len(shape) - v - 1 < 3:
        return None
    c, h, w = sizes(shape[-3:])
    if inverse:
        for name, s in (("height", h), ("width", w)):
            _divides(op, name, s, factor)
        out = (_times(c, factor * factor), _over(h, factor), _over(w, factor))
        if const_of(numel(shape)) == 0:
            return shape  # torch returns an empty input as it is
        if not has_elements(shape):
            return None
    else:
        _divides(op, "channel count", c, factor * factor)
        out = (_over(c, factor * factor), _times(h, factor), _times(w, factor))
    return (*shape[:-3], *out)


def channel_shuffle(shape: MaybeShape, groups: int | Expr) -> MaybeShape:
    """`F.channel_shuffle(x, g)`: `(N, C, *)` with more than 2 dims, its channels reordered in `g` groups.

    `g` must be positive and divide `C` (checked where both are constants: a symbolic channel
    count is taken as a multiple, SHAPES.md §6).
    """
    op = "channel_shuffle"
    value = groups if isinstance(groups, int) else groups.const_value
    if value is not None and value <= 0:
        raise ShapeRuleError(f"{op}: groups must be positive, got {value}")
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) <= 2:
        raise ShapeRuleError(f"{op}: the input {show_shape(shape)} must have more than 2 dims (N, C, *)")
    channels = shape[1] if len(shape) > 1 and variadic_index(shape) not in (0, 1) else None
    if value is not None and not isinstance(channels, Variadic):
        _divides(op, "channel count (dim 1)", channels, value)
    return shape


def _divides(op: str, what: str, size: Size, factor: int) -> None:
    """A constant size must divide by `factor` (a symbolic one is taken as a multiple, SHAPES.md §6)."""
    value = const_of(size)
    if value is not None and value % factor:
        raise ShapeRuleError(f"{op}: the {what} {show(size)} must be divisible by {factor}")


def _over(size: Size, factor: int) -> Size:
    return None if size is None else size // factor


def _times(size: Size, factor: int) -> Size:
    return None if size is None else size * factor


def view_as_complex(shape: MaybeShape) -> MaybeShape:
    """`torch.view_as_complex(x)`: a last dim of size 2 (real and imaginary parts) is dropped."""
    op = "view_as_complex"
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: the input must have at least 1 dim (of size 2)")
    if variadic_index(shape) == len(shape) - 1:
        return None
    last = shape[-1]
    assert not isinstance(last, Variadic)
    if differ(last, const(2)):
        raise ShapeRuleError(f"{op}: the last dim must have size 2 (real, imaginary), not {show(last)}")
    return shape[:-1]


def view_as_real(shape: MaybeShape) -> MaybeShape:
    """`torch.view_as_real(x)`: a last dim of size 2 is appended."""
    return None if shape is None else (*shape, const(2))
