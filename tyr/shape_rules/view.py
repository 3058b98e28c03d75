"""Rearranging elements: `view`/`reshape` (with one -1), `flatten`, `unflatten`, `squeeze`, `unsqueeze`, `repeat`."""

from __future__ import annotations

from collections.abc import Sequence

from tyr._symbolic import Expr, const, exact_quotient
from tyr.shape_rules.core import (
    Dims,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    differ,
    dims_argument,
    is_one,
    locate,
    min_rank,
    never_one,
    numel,
    product,
    may_be_minus_one,
    rank,
    show,
    show_shape,
    variadic_index,
    wrap_dim,
)


def _minus_one(size: Size) -> bool:
    return size is not None and size.const_value == -1


def infer_sizes(total: Size, wanted: Sequence[SizeArg], op: str, what: str) -> tuple[Size, ...]:
    """`wanted` with its -1 (if any) solved so that the sizes multiply to `total` (torch's `infer_size`).

    Raises when there are two -1s, a size below -1, or the element counts provably differ.
    A -1 becomes `total / product(others)` where that divides exactly; when divisibility
    cannot be decided (`12*B` over 5) it is None.  Without a -1, sizes whose product has
    a different normal form from `total` are an error unless a floor division is involved
    (`H*(C//H)` may well be `C`: unprovable, so accepted).
    """
    sizes = [as_size(s) for s in wanted]
    minus = [i for i, s in enumerate(sizes) if _minus_one(s)]
    if len(minus) > 1:
        raise ShapeRuleError(f"{op}: only one dimension can be inferred (-1), got {_show_sizes(sizes)}")
    for i, s in enumerate(sizes):
        value = const_of(s)
        if value is not None and value < -1:
            raise ShapeRuleError(f"{op}: invalid size {value} at index {i} of {_show_sizes(sizes)}")
    others = product([s for i, s in enumerate(sizes) if i not in minus])
    if not minus:
        # A size such as `b - 2` is -1 at `b = 1`, where torch infers that dim instead: its value
        # there is the inferred one, so it is unknown, and the element counts may agree.
        maybe_minus = [i for i, s in enumerate(sizes) if may_be_minus_one(s)]
        if maybe_minus:
            return tuple(None if i in maybe_minus else s for i, s in enumerate(sizes))
        if differ(total, others):
            raise ShapeRuleError(f"{op}: shape {_show_sizes(sizes)} has {others} elements but {what} has {total}")
        return tuple(sizes)
    (i,) = minus
    solved = _solve(total, others, op, sizes, what)
    return tuple(solved if j == i else s for j, s in enumerate(sizes))


def _solve(total: Size, others: Size, op: str, sizes: list[Size], what: str) -> Size:
    if others is not None and others.const_value == 0:
        raise ShapeRuleError(
            f"{op}: cannot infer the -1 in {_show_sizes(sizes)}: the other sizes multiply to 0, so any value fits"
        )
    if total is None or others is None:
        return None
    quotient = exact_quotient(total, others)
    if quotient is not None:
        return quotient
    n, p = total.const_value, others.const_value
    if n is not None and p is not None or _ratio_is_a_fraction(total, others):
        raise ShapeRuleError(f"{op}: shape {_show_sizes(sizes)} does not divide the {total} elements of {what}")
    return None


def _ratio_is_a_fraction(total: Expr, others: Expr) -> bool:
    """`total / others` is a constant that is not an integer (`12*B*T` over `5*B*T`)."""
    if len(total.terms) != 1 or len(others.terms) != 1:
        return False
    (mono_n, coeff_n), (mono_p, coeff_p) = total.terms[0], others.terms[0]
    return mono_n == mono_p and coeff_n % coeff_p != 0


def _show_sizes(sizes: Sequence[Size]) -> str:
    return "[" + ", ".join(show(s) for s in sizes) + "]"


def view(shape: MaybeShape, sizes: Sequence[SizeArg]) -> MaybeShape:
    """`x.view(*sizes)`: the same elements in shape `sizes`, one of which may be -1 (inferred).

    The element counts must agree (see `infer_sizes`).  `B*12` viewed as `(-1, 3, 4)` is
    `(B, 3, 4)`; `(B, T, H, C//H)` viewed as `(B, T, C)` is accepted (unprovable either way).
    torch's `view` also needs compatible strides; that depends on the memory layout, not
    on shapes, so it is not checked here.
    """
    total = None if shape is None else numel(shape)
    return infer_sizes(total, sizes, "view", f"the tensor {show_shape(shape)}")


def reshape(shape: MaybeShape, sizes: Sequence[SizeArg]) -> MaybeShape:
    """`x.reshape(*sizes)` / `torch.reshape`: as `view` (a copy is made when strides do not allow a view)."""
    total = None if shape is None else numel(shape)
    return infer_sizes(total, sizes, "reshape", f"the tensor {show_shape(shape)}")


def flatten(shape: MaybeShape, start_dim: int = 0, end_dim: int = -1) -> MaybeShape:
    """`x.flatten(start_dim, end_dim)`: dims `start_dim..end_dim` (inclusive) merged into one.

    A 0-d tensor becomes `(1,)`.  Dims of a Variadic merged in give an unknown size:
    `Tensor[*Batch, T, D].flatten(0, -2)` is `(?, D)`.
    """
    if shape is None:
        # every dim merged (`x.flatten()`): one dim, whatever the rank
        return (None,) if start_dim == 0 and end_dim == -1 else None
    if rank(shape) == 0:
        wrap_dim(start_dim, 0, "flatten")
        wrap_dim(end_dim, 0, "flatten")
        return (const(1),)
    start = 0 if start_dim == 0 else locate(shape, start_dim, "flatten")
    end = len(shape) - 1 if end_dim == -1 else locate(shape, end_dim, "flatten")
    if start is None or end is None:
        return None
    if start > end:
        raise ShapeRuleError(f"flatten: start_dim {start_dim} comes after end_dim {end_dim} for {show_shape(shape)}")
    merged = shape[start : end + 1]
    size = None if any(isinstance(s, Variadic) for s in merged) else product(_plain(merged))
    return (*shape[:start], size, *shape[end + 1 :])


def _plain(shape: Shape) -> list[Size]:
    return [s for s in shape if not isinstance(s, Variadic)]


def unflatten(shape: MaybeShape, dim: int, sizes: Sequence[SizeArg]) -> MaybeShape:
    """`x.unflatten(dim, sizes)`: dim `dim` split into `sizes` (one may be -1), which must multiply to it."""
    if not sizes:
        raise ShapeRuleError("unflatten: sizes must be non-empty")
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError("unflatten: a 0-d tensor has no dimension to unflatten")
    pos = locate(shape, dim, "unflatten")
    if pos is None:
        return None
    item = shape[pos]
    assert not isinstance(item, Variadic)
    split = infer_sizes(item, sizes, "unflatten", f"dimension {dim} ({show(item)})")
    return (*shape[:pos], *split, *shape[pos + 1 :])


def squeeze(shape: MaybeShape, dim: Dims = None) -> MaybeShape:
    """`x.squeeze(dim)`: the named dims (all, if None) that have size 1 are removed; others stay.

    Whether a symbolic size is 1 depends on its value, so squeezing one gives an unknown shape,
    unless it is at least 2 at every size (`T + 1`, `2*B`): that one stays.
    """
    if shape is None:
        return None
    dims = dims_argument(dim)
    if dims is None:
        if variadic_index(shape) is not None or not all(is_one(s) or never_one(s) for s in _plain(shape)):
            return None
        return tuple(s for s in _plain(shape) if not is_one(s))
    positions: list[int] = []
    for d in dims:
        pos = locate(shape, d, "squeeze")
        if pos is not None and pos in positions:
            raise ShapeRuleError(f"squeeze: dim {d} appears more than once in {tuple(dims)}")
        if pos is None:
            return None
        positions.append(pos)
    if not shape:
        return ()
    drop = set()
    for pos in positions:
        item = shape[pos]
        assert not isinstance(item, Variadic)
        if is_one(item):
            drop.add(pos)
        elif not never_one(item):
            return None
    return tuple(s for i, s in enumerate(shape) if i not in drop)


def unsqueeze(shape: MaybeShape, dim: int) -> MaybeShape:
    """`x.unsqueeze(dim)`: a dim of size 1 inserted so that it is dim `dim` of the result."""
    if shape is None:
        return None
    pos = locate(shape, dim, "unsqueeze", extra=1, scalar_as_1d=False)
    if pos is None:
        return None
    return (*shape[:pos], const(1), *shape[pos:])


def repeat(shape: MaybeShape, repeats: Sequence[SizeArg]) -> MaybeShape:
    """`x.repeat(*repeats)`: dim `i` (aligned at the end) times `repeats[i]`; extra repeats lead as new dims.

    There must be at least as many repeats as dims.  Every resulting size must be at least 0
    (a negative count is accepted only on a dim of size 0).  Of a tensor of unknown shape
    the result has one dim per count, each of unknown size (a count times a size, or the
    count itself for a new dim), except that a count of 0 makes a dim of size 0.
    """
    counts = [as_size(r) for r in repeats]
    if shape is None:
        return tuple(const(0) if const_of(c) == 0 else None for c in counts)
    if min_rank(shape) > len(counts):
        raise ShapeRuleError(
            f"repeat: {len(counts)} repeat counts given for {show_shape(shape)}; there must be at least one per dim"
        )
    v = variadic_index(shape)
    known = len(shape) if v is None else len(shape) - v - 1  # dims known from the end
    out: list[Size] = []
    for i, c in enumerate(counts):
        from_end = len(counts) - i
        item: Size = const(1)
        if from_end <= known:
            at = shape[len(shape) - from_end]
            assert not isinstance(at, Variadic)
            item = at
        elif v is not None:
            item = None  # a dim of the Variadic, or a new one
        if (const_of(c) or 0) < 0 and (item is None or const_of(item) != 0):
            if item is not None:
                raise ShapeRuleError(
                    f"repeat: repeat count {show(c)} at index {i} makes dim {i} of the result negative "
                    f"({show(item)} * {show(c)})"
                )
            out.append(None)
            continue
        out.append(None if item is None or c is None else item * c)
    return tuple(out)
