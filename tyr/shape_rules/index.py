"""Basic indexing: `x[i]`, `x[a:b:c]`, `x[None]`, `x[...]`, and combinations (`x[:, -1]`, `x[..., :k]`, `x[:t]`)."""

from __future__ import annotations

from collections.abc import Sequence
from types import EllipsisType
from typing import Union

from tyr._symbolic import Expr, const
from tyr.shape_rules.core import (
    UNKNOWN,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    Unknown,
    Variadic,
    lower_bound,
    rank,
    show,
    show_shape,
    variadic_index,
)

Bound = Union[int, Expr, None, Unknown]
"""A slice bound: a literal int, a symbolic size (a `Dim`), None (omitted) or `UNKNOWN`."""

IndexItem = Union[int, Expr, Unknown, slice, None, EllipsisType]
"""One item of a subscript: an int (`bool` included), a symbolic int, an int of unknown value,
a `slice` of `Bound`s, None (a new dim) or `...`."""


def _consumes(item: IndexItem) -> bool:
    """Whether the item indexes one of the tensor's dims (rather than adding one or being `...`)."""
    return not (item is None or item is Ellipsis or isinstance(item, bool))


def index(shape: MaybeShape, items: Sequence[IndexItem]) -> MaybeShape:
    """`x[items]` with basic indexing (as a tuple of subscript items).

    * an int removes its dim; it must lie in `[-size, size)` (constants are checked);
    * a slice keeps its dim with the slice's length (Python's clamping; the step must be
      positive); a slice whose length depends on unprovable facts (`x[:k]` of a dim `T`
      with `k` unknown relative to `T`) gives an unknown size;
    * None adds a dim of size 1 (`True` likewise, `False` one of size 0);
    * `...` stands for every dim not indexed (implicit at the end).

    Torch also accepts several `...`s or several bools, with idiosyncratic meanings; those
    give an unknown shape.  Advanced (tensor) indexing is not covered here.
    """
    items = list(items)
    ellipses = sum(1 for it in items if it is Ellipsis)
    for it in items:
        if isinstance(it, slice):
            _check_step(it)
    if shape is None or ellipses > 1 or sum(1 for it in items if isinstance(it, bool)) > 1:
        return None
    if not ellipses:
        items.append(Ellipsis)
    cut = items.index(Ellipsis)
    before, after = items[:cut], items[cut + 1 :]
    n_before = sum(map(_consumes, before))
    n_after = sum(map(_consumes, after))
    r = rank(shape)
    if r is not None and n_before + n_after > r:
        if r == 0:
            raise ShapeRuleError(f"index: a 0-d tensor cannot be indexed by {_show_items(items)}")
        raise ShapeRuleError(
            f"index: {n_before + n_after} indices for the {r}-d tensor {show_shape(shape)}: too many"
        )
    v = variadic_index(shape)
    if v is not None and (n_before > v or n_after > len(shape) - v - 1):
        return None  # the indices reach into the Variadic
    head = _apply(shape, 0, before)
    tail = _apply(shape, len(shape) - n_after, after)
    if head is None or tail is None:
        return None
    return (*head, *shape[n_before : len(shape) - n_after], *tail)


def _apply(shape: Shape, start: int, items: Sequence[IndexItem]) -> Shape | None:
    out: list[Size | Variadic] = []
    pos = start
    for item in items:
        if item is None or item is True:
            out.append(const(1))
            continue
        if item is False:
            out.append(const(0))
            continue
        size = shape[pos]
        assert not isinstance(size, Variadic)
        if isinstance(item, slice):
            out.append(slice_length(size, item))
        else:
            assert item is not Ellipsis
            _check_int(size, item, pos)
        pos += 1
    return tuple(out)


def _check_int(size: Size, item: IndexItem, pos: int) -> None:
    if item is UNKNOWN or isinstance(item, bool) or size is None:
        return
    index = item if isinstance(item, Expr) else const(item) if isinstance(item, int) else None
    if index is None:
        return
    # out of bounds when provably index >= size or index < -size (`x[n]` of a dim of size N)
    above = lower_bound(index - size)
    below = lower_bound(-index - size - 1)
    if above is not None and above >= 0 or below is not None and below >= 0:
        raise ShapeRuleError(f"index: index {show(index)} is out of bounds for dimension {pos} with size {show(size)}")


def _check_step(item: slice) -> None:
    step = item.step
    if isinstance(step, Expr):
        step = step.const_value
    if isinstance(step, int) and step <= 0:
        raise ShapeRuleError(f"index: slice step must be greater than zero, got {step}")


def _show_items(items: Sequence[IndexItem]) -> str:
    def one(it: IndexItem) -> str:
        if it is Ellipsis:
            return "..."
        if isinstance(it, slice):
            parts = ["" if x is None else show(x) if isinstance(x, Expr) else "?" if x is UNKNOWN else str(x)
                     for x in (it.start, it.stop, it.step)]
            return ":".join(parts[:2]) + (f":{parts[2]}" if it.step is not None else "")
        if it is UNKNOWN:
            return "?"
        return str(it)

    return "[" + ", ".join(one(it) for it in items) + "]"


# -- slice lengths ---------------------------------------------------------------------------------


def _as_bound(value: object) -> Expr | None | Unknown:
    if value is None or isinstance(value, (Unknown, Expr)):
        return value
    if isinstance(value, int):
        return const(value)
    raise TypeError(f"a slice bound is an int, an Expr, None or UNKNOWN, not {value!r}")


def _nonneg(e: Expr) -> bool | None:
    """Whether `e >= 0` for every positive value of the symbols: True, False, or None if not evident."""
    low = lower_bound(e)
    if low is not None and low >= 0:
        return True
    high = lower_bound(-e)
    if high is not None and high >= 1:
        return False
    return None


def _clamp(bound: Expr | None | Unknown, size: Expr, default: Expr) -> Expr | None:
    """A start or stop resolved as Python does: negative counts from the end, then clamped to `[0, size]`."""
    if bound is None:
        return default
    if bound is UNKNOWN:
        return None
    assert isinstance(bound, Expr)
    sign = _nonneg(bound)
    if sign is None:
        return None
    if sign:
        # min(bound, size)
        below = _nonneg(size - bound)
        return bound if below else size if below is False else None
    # max(size + bound, 0)
    shifted = size + bound
    above = _nonneg(shifted)
    return shifted if above else const(0) if above is False else None


def slice_length(size: Size, item: slice) -> Size:
    """The length of `range(size)[item]`: the size of a dim sliced by `item`, or None if not evident."""
    start, stop, step = _as_bound(item.start), _as_bound(item.stop), _as_bound(item.step)
    if step is None:
        step = const(1)
    if size is None or step is UNKNOWN:
        return None
    assert isinstance(step, Expr)
    n = size.const_value
    literal: list[int | None] = []
    for b in (start, stop, step):
        value = b.const_value if isinstance(b, Expr) else None
        if b is not None and value is None:
            break
        literal.append(value)
    else:
        if n is not None:
            return const(len(range(n)[slice(*literal)]))
    lo = _clamp(start, size, const(0))
    hi = _clamp(stop, size, size)
    if lo is None or hi is None:
        return None
    span = hi - lo
    sign = _nonneg(span)
    if sign is None:
        return None
    if not sign:
        return const(0)
    return (span + step - 1) // step
