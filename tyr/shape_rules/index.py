"""Indexing: `x[i]`, `x[a:b:c]`, `x[None]`, `x[...]`, combinations (`x[:, -1]`, `x[..., :k]`, `x[:t]`),
and advanced indexing with integer tensors (`x[idx]`, `x[:, idx]`) and boolean masks (`x[mask]`).

The rule follows torch's own two steps (`applySlicing`, then `at::index`): the subscript's
items are applied left to right to the tensor, ints selecting (removing) a dim, slices
slicing one, None adding one of size 1, `...` skipping the dims no item names, while each
index tensor is recorded at the dim it stands on (a boolean mask of k dims on k dims).
Then the index tensors broadcast together, a mask standing for its true elements' indices
(one unknown count), and their shape replaces the dims they index: in place when those dims
are adjacent, at the front otherwise.  A Python bool (or a 0-d bool tensor) adds a dim of
size 1 and indexes it with `[0]` (True) or `[]` (False); a 0-d integer tensor selects, as
an int does.

`unravel_index` turns flat indices into one index per dim of a shape.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from types import EllipsisType
from typing import Literal, Union

from tyr._symbolic import Expr, const
from tyr.shape_rules.broadcast import broadcast_shapes, broadcasts_to
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
    divide_size,
    divide_with_offset,
    has_elements,
    lower_bound,
    min_rank,
    never_one,
    rank,
    same,
    show,
    show_shape,
    show_sizes,
    sizes,
    variadic_index,
)

Bound = Union[int, Expr, None, Unknown]
"""A slice bound: a literal int, a symbolic size (a `Dim`), None (omitted) or `UNKNOWN`."""


@dataclass(frozen=True)
class TensorIndex:
    """An index tensor in a subscript: its shape, and whether it holds integers or bools (None: not known).

    A list of ints is an integer index of shape `(len,)`, a list of bools a mask.
    """

    shape: MaybeShape
    dtype: Literal["int", "bool"] | None = "int"


IndexItem = Union[int, Expr, Unknown, slice, None, EllipsisType, TensorIndex]
"""One item of a subscript: an int (`bool` included), a symbolic int, an int of unknown value,
a `slice` of `Bound`s, None (a new dim), `...`, or an index tensor."""

_READINGS: tuple[Literal["int", "bool"], ...] = ("int", "bool")
"""An index tensor of unknown dtype is read both ways."""

_MAX_UNKNOWN_DTYPES = 3
"""Past this many index tensors of unknown dtype the result is unknown."""


class _NoIndexFits(ShapeRuleError):
    """An integer index into a dim of size 0."""


def index(shape: MaybeShape, items: Sequence[IndexItem]) -> MaybeShape:
    """`x[items]` (a subscript as the tuple of its items).

    * an int removes its dim; it must lie in `[-size, size)` (constants are checked);
    * a slice keeps its dim with the slice's length (Python's clamping; the step must be
      positive); a slice whose length depends on unprovable facts (`x[:k]` of a dim `T`
      with `k` unknown relative to `T`) gives an unknown size;
    * None adds a dim of size 1 (`True` likewise, `False` one of size 0, as index tensors);
    * `...` stands for every dim not indexed (implicit at the end); torch lets later `...`s
      skip as many dims again;
    * an integer index tensor indexes its dim, a boolean mask as many dims as it has, whose
      sizes it must match; see the module docstring for how they combine.

    An index tensor whose dtype is not known (`TensorIndex(shape, None)`) is read as integers
    and as a mask: the result is what both readings agree on, and an error only when both fail.
    """
    items = list(items)
    for it in items:
        if isinstance(it, slice):
            _check_step(it)
    open_dtypes = [i for i, it in enumerate(items) if isinstance(it, TensorIndex) and it.dtype is None]
    if not open_dtypes:
        return _index(shape, items)
    if len(open_dtypes) > _MAX_UNKNOWN_DTYPES:
        return None
    results: list[MaybeShape] = []
    errors: list[ShapeRuleError] = []
    for dtypes in itertools.product(_READINGS, repeat=len(open_dtypes)):
        trial = list(items)
        for i, dtype in zip(open_dtypes, dtypes):
            item = items[i]
            assert isinstance(item, TensorIndex)
            trial[i] = TensorIndex(item.shape, dtype)
        try:
            results.append(_index(shape, trial))
        except ShapeRuleError as err:
            errors.append(err)
    if not results:
        raise errors[0]
    return _join(results)



def setitem(shape: MaybeShape, items: Sequence[IndexItem], value: MaybeShape) -> MaybeShape:
    """`x[items] = value`: `x`'s shape, after checking that the value fits `x[items]` (None where the
    shape of `x[items]` is unknown).

    torch drops the value's leading dims of size 1, then expands what is left to the shape of
    `x[items]` (the in-place rule: it may not grow that shape; a 0-d value fills it).  A
    leading dim of unknown size is dropped here too: what fails to fit without it fails with
    it, whatever its size.  A symbol is no 1 (SHAPES.md §6), as in every other broadcast.
    """
    target = index(shape, items)
    if target is None:  # nor whether torch reads the subscript at all (several `...`s)
        return None
    if value is None or variadic_index(value) is not None:
        return shape
    dims = sizes(value)
    start = 0
    while start < len(dims) and (dims[start] is None or dims[start] == const(1)):
        start += 1
    broadcasts_to(dims[start:], target, op="setitem")
    return shape


def index_put(
    shape: MaybeShape,
    indices: Sequence[TensorIndex],
    values: MaybeShape,
    accumulate: bool | None = False,
    *,
    op: str = "index_put_",
) -> MaybeShape:
    """`x.index_put_(indices, values, accumulate)` / `x.index_put(...)`: `x`'s shape, after checking that
    `values` broadcasts into `x[indices]` without growing it (`accumulate`: None where unknown).

    Unlike `x[indices] = values`, torch drops none of the values' leading dims of size 1
    (`index_put_((i, j), v)` with `x[i, j]` of shape `(2, 6)` refuses a `v` of `(1, 2, 6)`).
    One boolean mask without `accumulate` and a value of one element is torch's shortcut to
    `masked_fill_`, which takes that value whatever its number of dims.
    """
    if not indices:
        return shape  # (torch fails an internal assert on an empty tuple: not ruled)
    if (
        len(indices) == 1
        and indices[0].dtype != "int"
        and accumulate is not True
        and (values is None or variadic_index(values) is not None or not any(never_one(s) for s in sizes(values)))
    ):
        index(shape, indices)
        return shape
    try:
        target = index(shape, indices)
    except _NoIndexFits as err:
        others = [it for it in indices if it.shape != ()]
        if len(others) == len(indices) or all(it.dtype == "int" and has_elements(it.shape) for it in others):
            raise ShapeRuleError(f"{op}: {err}") from None
        # `index` reads a 0-d index tensor as a select, whose bound torch checks; here it is an index tensor
        # like the others, whose bounds torch checks only where the joint index has elements: the indexed
        # dims of size 0 are read as of unknown size (they are indexed away, so the target is the same)
        if shape is None or variadic_index(shape) is not None:
            return shape
        covered = sum(len(shape) if it.shape is None else max(1, len(it.shape)) for it in indices)  # (or more)
        relaxed = tuple(None if i < covered and const_of(s) == 0 else s for i, s in enumerate(sizes(shape)))
        target = index(relaxed, indices)
    except ShapeRuleError as err:
        raise ShapeRuleError(f"{op}: {err}") from None
    if values is not None and target is not None:
        broadcasts_to(values, target, op=op)
    return shape


def _join(results: Sequence[MaybeShape]) -> MaybeShape:
    """What the shapes have in common: the shape itself where all agree, None where they differ."""
    first = results[0]
    if first is None:
        return None
    out = list(first)
    for other in results[1:]:
        if other is None or len(other) != len(out) or variadic_index(other) != variadic_index(first):
            return None
        for j, (a, b) in enumerate(zip(out, other)):
            if isinstance(a, Variadic) or isinstance(b, Variadic):
                if a != b:
                    return None
            elif not same(a, b):
                out[j] = None
    return tuple(out)


def _specified(item: IndexItem) -> int | None:
    """How many of the tensor's dims the item names (torch's `count_specified_dimensions`); None if unknown."""
    if isinstance(item, TensorIndex):
        if item.dtype != "bool":
            return 1
        if item.shape is None or variadic_index(item.shape) is not None:
            return None
        return len(item.shape)
    return 0 if item is None or item is Ellipsis or isinstance(item, bool) else 1


class _GiveUp(Exception):
    """The result depends on something the rule cannot see (a Variadic's length, an odd `...`)."""


@dataclass
class _Recorded:
    pos: int  # the dim of the sliced tensor it indexes
    shape: Shape  # the index tensor's shape (a mask's part: `(count,)`)
    integers: bool  # an integer index (its values must fall in the dim)


def _index(shape: MaybeShape, items: list[IndexItem]) -> MaybeShape:
    if shape is None:
        return None
    counts = [_specified(it) for it in items]
    if any(c is None for c in counts):
        return None
    specified = sum(c for c in counts if c is not None)
    r = rank(shape)
    if r is not None and specified > r:
        if r == 0:
            raise ShapeRuleError(f"index: a 0-d tensor cannot be indexed by {_show_items(items)}")
        raise ShapeRuleError(f"index: {specified} indices for the {r}-d tensor {show_shape(shape)}: too many")
    ellipses = sum(1 for it in items if it is Ellipsis)
    if r is None and ellipses > 1:
        return None
    if not ellipses:
        items = [*items, Ellipsis]
        counts = [*counts, 0]
    try:
        return _apply(shape, items, counts, specified)
    except _GiveUp:
        return None


class _Walk:
    """torch's `applySlicing`: the items applied left to right, a pointer at the dim the next one takes."""

    def __init__(self, shape: Shape) -> None:
        self.cur: list[Size | Variadic] = list(shape)
        self.dim = 0
        self.recorded: list[_Recorded] = []

    def size(self) -> Size:
        """The size of the dim the pointer is at."""
        if self.dim >= len(self.cur):
            raise _GiveUp  # past the end: only after a second `...`
        item = self.cur[self.dim]
        if isinstance(item, Variadic):
            raise _GiveUp  # a dim of the Variadic, or one after it
        return item

    def sizes(self, n: int) -> list[Size]:
        """The sizes of the `n` dims from the pointer on."""
        start = self.dim
        out = []
        for j in range(n):
            self.dim = start + j
            out.append(self.size())
        self.dim = start
        return out

    def insert(self, record: Shape | None = None, integers: bool = True) -> None:
        """A new dim of size 1 at the pointer (None, a bool), indexed by `record` when given."""
        if self.dim > len(self.cur):
            raise _GiveUp
        self.cur.insert(self.dim, const(1))
        if record is not None:
            self.recorded.append(_Recorded(self.dim, record, integers))
        self.dim += 1

    def select(self) -> None:
        del self.cur[self.dim]

    def tensor(self, it: TensorIndex) -> None:
        index_shape = it.shape
        if it.dtype == "bool":
            assert index_shape is not None and variadic_index(index_shape) is None
            if not index_shape:  # a 0-d mask: a new dim, indexed by `[0]` or `[]`
                self.insert((None,))
                return
            mask = [s for s in index_shape if not isinstance(s, Variadic)]
            for j, (m, size) in enumerate(zip(mask, self.sizes(len(mask)))):
                if differ(m, size):
                    raise ShapeRuleError(
                        f"index: the mask's shape {show_shape(index_shape)} does not match dims {self.dim} to "
                        f"{self.dim + len(mask) - 1} of the indexed tensor {show_shape(tuple(self.cur))}: dim "
                        f"{self.dim + j} is {show(size)}, the mask's is {show(m)}"
                    )
            count = const(0) if any(const_of(m) == 0 for m in mask) else None  # how many are true
            self.recorded.extend(_Recorded(self.dim + j, (count,), False) for j in range(len(mask)))
            self.dim += len(mask)
            return
        size = self.size()
        if index_shape is None or variadic_index(index_shape) is not None and min_rank(index_shape) == 0:
            raise _GiveUp  # 0-d (a select) or not
        if not index_shape:  # a 0-d integer tensor selects, as an int does
            if const_of(size) == 0:
                raise _NoIndexFits(f"index: dimension {self.dim} has size 0, so every index is out of bounds")
            self.select()
            return
        self.recorded.append(_Recorded(self.dim, index_shape, True))
        self.dim += 1


def _apply(shape: Shape, items: list[IndexItem], counts: list[int | None], specified: int) -> MaybeShape:
    walk = _Walk(shape)
    seen_ellipsis = False
    for k, it in enumerate(items):
        if it is Ellipsis:
            v = variadic_index(tuple(walk.cur))
            if v is None:
                r = rank(shape)
                assert r is not None
                walk.dim += r - specified
            else:
                if seen_ellipsis:
                    raise _GiveUp
                after = sum(c or 0 for c in counts[k + 1 :])
                target = len(walk.cur) - after
                if walk.dim > v or target <= v:
                    raise _GiveUp  # the items before (or after) the `...` reach into the Variadic
                walk.dim = target
            seen_ellipsis = True
        elif it is None:
            walk.insert()
        elif isinstance(it, bool):
            walk.insert((const(1 if it else 0),))
        elif isinstance(it, slice):
            walk.cur[walk.dim] = slice_length(walk.size(), it)
            walk.dim += 1
        elif isinstance(it, TensorIndex):
            walk.tensor(it)
        else:
            _check_int(walk.size(), it, walk.dim)
            walk.select()
    return _advanced(walk.cur, walk.recorded)


def _advanced(cur: list[Size | Variadic], recorded: list[_Recorded]) -> MaybeShape:
    """The sliced tensor `cur` indexed by the recorded index tensors (`at::index`)."""
    if not recorded:
        return tuple(cur)
    joint = broadcast_shapes(*(r.shape for r in recorded), op="index (index tensors)",
                             operands=[f"the index of dim {r.pos}" for r in recorded])
    if joint is None:
        return None
    if has_elements(joint):
        for r in recorded:
            size = cur[r.pos]
            if r.integers and not isinstance(size, Variadic) and const_of(size) == 0:
                raise _NoIndexFits(f"index: dimension {r.pos} has size 0, so every index is out of bounds")
    positions = sorted({r.pos for r in recorded})
    v = variadic_index(tuple(cur))
    if v is not None and positions[0] < v < positions[-1]:
        return None  # adjacent only when the Variadic is empty
    if positions[-1] - positions[0] + 1 == len(positions):
        return (*cur[: positions[0]], *joint, *cur[positions[-1] + 1 :])
    return (*joint, *(s for i, s in enumerate(cur) if i not in positions))


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
        if isinstance(it, TensorIndex):
            return f"{'mask' if it.dtype == 'bool' else 'tensor'}{show_shape(it.shape)}"
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


def _empty_at_every_size(start: Expr | None | Unknown, stop: Expr | None | Unknown) -> bool:
    """`x[3:1]`, `x[-1:-3]`, `x[t:1]`: a stop at or before the start, both counted from the same end, selects
    nothing whatever the dim's size (clamping keeps their order; the step is positive)."""
    if not isinstance(start, Expr) or not isinstance(stop, Expr):
        return False
    signs = _nonneg(start), _nonneg(stop)
    return None not in signs and signs[0] == signs[1] and _nonneg(start - stop) is True


def slice_length(size: Size, item: slice) -> Size:
    """The length of `range(size)[item]`: the size of a dim sliced by `item`, or None if not evident."""
    start, stop, step = _as_bound(item.start), _as_bound(item.stop), _as_bound(item.step)
    if _empty_at_every_size(start, stop):
        return const(0)
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
    step_value, lo_value = step.const_value, lo.const_value
    if step_value is not None and lo_value is not None:
        return divide_size(hi, step_value - 1 - lo_value, step_value)  # a step divides the dim
    return divide_with_offset(hi, step - 1 - lo, step)  # `x[k::2]`: a start `k` is no multiple of 2


def unravel_index(indices: MaybeShape, shape: Sequence[SizeArg]) -> tuple[MaybeShape, ...]:
    """`torch.unravel_index(indices, shape)`: one tensor of the indices' shape per dim of `shape` (an int is one
    dim).  No size may be negative, and a size of 0 leaves nothing to index where there are indices."""
    dims = [as_size(s) for s in shape]
    for size in dims:
        value = const_of(size)
        if value is not None and value < 0:
            raise ShapeRuleError(f"unravel_index: the shape {show_sizes(dims)} has a negative size")
        if value == 0 and has_elements(indices):
            raise ShapeRuleError(
                f"unravel_index: the shape {show_sizes(dims)} has no elements to index with {show_shape(indices)}"
            )
    return tuple(indices for _ in dims)
