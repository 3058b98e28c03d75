"""Indexing along one dim with an index tensor: `gather`, `take_along_dim`, `take`, `index_select`, `scatter`,
`scatter_add`, `scatter_reduce`, `index_add`, `index_copy`, `index_fill`.

Torch skips most of its shape checks when the index tensor is empty, and an index into
a dim of size 0 is out of bounds whatever its value; so a rule reports a mismatch only
when the index provably has elements (every size known and at least 1), and reads an
index with a size of 0 as the empty case.
"""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes
from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    Variadic,
    const_of,
    differ,
    fill_value,
    has_elements,
    locate,
    lower_bound,
    min_rank,
    numel,
    rank,
    show,
    show_shape,
    sizes,
    wrap_dim,
)


def _count(shape: MaybeShape) -> Size:
    """The number of elements of a shape, None when unknown."""
    return None if shape is None else numel(shape)


def _empty(shape: MaybeShape) -> bool:
    """The tensor provably has no elements: one of its sizes is 0."""
    return shape is not None and any(not isinstance(s, Variadic) and const_of(s) == 0 for s in shape)


def _larger(a: Size, b: Size) -> bool:
    """`a > b` for every value of the symbols (as far as evident)."""
    if a is None or b is None:
        return False
    low = lower_bound(a - b)
    return low is not None and low >= 1


def _at_least_1d(shape: Shape) -> tuple[Size, ...]:
    """The sizes torch's scatter/gather checks see: a 0-d tensor counts as `(1,)`."""
    return sizes(shape) if shape else (const(1),)


def _wrap(shape: MaybeShape, dim: int, op: str) -> int | None:
    """`dim` wrapped for `shape` (a 0-d tensor takes 0 and -1); None when it falls in a Variadic."""
    if shape is None:
        return None
    return locate(shape, dim, op)


def _out_of_bounds(shape: MaybeShape, pos: int | None, index: MaybeShape, op: str, *, slices: bool = False) -> None:
    """Any index into a dim of size 0 is out of bounds (with `slices`, torch notices only when the
    slices it would copy have elements: the other dims of `shape` are not empty)."""
    if shape is None or pos is None or not shape or not has_elements(index):
        return
    size = shape[pos]
    assert not isinstance(size, Variadic)
    if slices and not has_elements((*shape[:pos], *shape[pos + 1 :])):
        return
    if const_of(size) == 0:
        raise ShapeRuleError(f"{op}: dimension {pos} of {show_shape(shape)} has size 0, so every index is out of bounds")


def _no_larger(
    op: str, index: Shape, other: Shape, skip: int | None, other_name: str
) -> None:
    """torch's scatter/gather size check: each dim of `index` (but `skip`) no larger than `other`'s."""
    if rank(index) is None or rank(other) is None:
        return
    a, b = _at_least_1d(index), _at_least_1d(other)
    if len(a) != len(b):
        return
    for i, (x, y) in enumerate(zip(a, b)):
        if i != skip and _larger(x, y):
            raise ShapeRuleError(
                f"{op}: dimension {i} of the index ({show(x)}) is larger than dimension {i} of the {other_name} "
                f"({show(y)}); shapes: index {show_shape(index)}, {other_name} {show_shape(other)}"
            )


def _same_rank(op: str, a: Shape, a_name: str, b: Shape, b_name: str) -> None:
    """`a` and `b` have one number of dims (a 0-d tensor counts as 1-d)."""
    ra, rb = rank(a), rank(b)
    if ra is not None and rb is not None:
        clash = max(ra, 1) != max(rb, 1)
    else:
        clash = ra is not None and min_rank(b) > max(ra, 1) or rb is not None and min_rank(a) > max(rb, 1)
    if clash:
        raise ShapeRuleError(f"{op}: the {a_name} {show_shape(a)} must have as many dims as the {b_name} {show_shape(b)}")


def gather(input: MaybeShape, dim: int, index: MaybeShape, *, op: str = "gather") -> MaybeShape:
    """`torch.gather(input, dim, index)` / `x.gather(dim, index)`: a tensor of the index's shape.

    The index has as many dims as the input, and each of its dims but `dim` is no larger
    than the input's (a 0-d tensor counts as 1-d); torch checks this only for an index
    with elements.
    """
    pos = _wrap(input, dim, op)
    if index is None:
        return None
    if input is not None and has_elements(index):
        _same_rank(op, index, "index", input, "input")
        _no_larger(op, index, input, pos, "input")
        _out_of_bounds(input, pos, index, op)
    return index


def take_along_dim(input: MaybeShape, indices: MaybeShape, dim: int | None = None) -> MaybeShape:
    """`torch.take_along_dim(input, indices, dim)`: `gather` after broadcasting all dims but `dim`.

    Without `dim` both are flattened: the result is `(indices.numel(),)`.  With it, both have
    one number of dims; the result is `input` and `indices` broadcast, with the size of
    `indices` at `dim`.
    """
    op = "take_along_dim"
    if dim is None:
        if input is not None and _empty(input) and has_elements(indices):
            raise ShapeRuleError(f"{op}: the input {show_shape(input)} is empty, so every index is out of bounds")
        return None if indices is None else (_count(indices),)
    if input is None or indices is None:
        return None
    if rank(input) == 0 or rank(indices) == 0:
        raise ShapeRuleError(f"{op}: a 0-d tensor has no dimension {dim}")
    ri, rj = rank(input), rank(indices)
    if ri is not None and rj is not None and ri != rj or (
        ri is not None and min_rank(indices) > ri or rj is not None and min_rank(input) > rj
    ):
        raise ShapeRuleError(
            f"{op}: input {show_shape(input)} and indices {show_shape(indices)} must have one number of dims"
        )
    if ri is None or rj is None:
        return None
    pos = wrap_dim(dim, ri, op)
    a, b = sizes(input), sizes(indices)
    out = broadcast_shapes((*a[:pos], b[pos], *a[pos + 1 :]), b, op=op, operands=("the input", "the indices"))
    broadcast_shapes(b[:pos] + (a[pos],) + b[pos + 1 :], a, op=op, operands=("the indices", "the input"))
    if out is not None:
        _out_of_bounds((*sizes(out)[:pos], a[pos], *sizes(out)[pos + 1 :]), pos, out, op)
    return out


def take(input: MaybeShape, index: MaybeShape) -> MaybeShape:
    """`torch.take(input, index)`: the elements of the flattened input at `index`, in the index's shape."""
    if input is not None and _empty(input) and has_elements(index):
        raise ShapeRuleError(f"take: the input {show_shape(input)} is empty, so every index is out of bounds")
    return index


def index_select(input: MaybeShape, dim: int, index: MaybeShape, *, op: str = "index_select") -> MaybeShape:
    """`x.index_select(dim, index)`: the input with dim `dim` as long as the index (a vector, or 0-d for one).

    Of a 0-d input the result is 0-d, and the index must have exactly one element.
    """
    count = _vector_index(index, op)
    if input is None:
        return None
    pos = _wrap(input, dim, op)
    if rank(input) == 0:
        if count is not None and differ(count, const(1)):
            raise ShapeRuleError(f"{op}: a 0-d input takes an index of one element, not {show_shape(index)}")
        return ()
    if pos is None:
        return None
    _out_of_bounds(input, pos, index, op)
    return (*input[:pos], count, *input[pos + 1 :])


def scatter(
    input: MaybeShape, dim: int, index: MaybeShape, src: MaybeShape = None, *, src_is_tensor: bool = True,
    op: str = "scatter",
) -> MaybeShape:
    """`x.scatter(dim, index, src)` / `scatter_add` / `scatter_reduce`: a tensor of the input's shape.

    For an index with elements: it has as many dims as the input (and as `src`, when `src`
    is a tensor; a 0-d tensor counts as 1-d), each of its dims but `dim` is no larger than
    the input's, and each is no larger than `src`'s.  Pass `src_is_tensor=False` for a
    scalar `value`.
    """
    pos = _wrap(input, dim, op)
    if index is None or not has_elements(index):
        return input
    if input is not None:
        _same_rank(op, index, "index", input, "input")
        _no_larger(op, index, input, pos, "input")
        _out_of_bounds(input, pos, index, op)
    if src_is_tensor and src is not None:
        if input is not None:
            _same_rank(op, src, "source", input, "input")
        _same_rank(op, index, "index", src, "source")
        _no_larger(op, index, src, None, "source")
    return input


def _vector_index(index: MaybeShape, op: str) -> Size:
    """The number of indices in an index that must be a vector (or 0-d)."""
    if index is not None and min_rank(index) > 1:
        raise ShapeRuleError(f"{op}: the index must be a vector (1-d or 0-d), not {show_shape(index)}")
    return _count(index)


def _count_matches(op: str, count: Size, source: Shape, pos: int) -> None:
    """`source.size(dim)` (1 for a 0-d source) is the number of indices."""
    if rank(source) is None:
        return
    size = sizes(source)[pos] if source else const(1)
    if differ(size, count):
        raise ShapeRuleError(
            f"{op}: the source {show_shape(source)} has {show(size)} slices along dimension {pos}, "
            f"but there are {show(count)} indices"
        )


def _slices_match(op: str, input: Shape, source: Shape, pos: int, erase: tuple[bool, bool]) -> None:
    """The input and the source agree but at dim `pos` (erased from each where `erase` says)."""
    a, b = list(sizes(input)), list(sizes(source))
    if erase[0]:
        del a[pos]
    if erase[1]:
        del b[pos]
    if len(a) != len(b) or any(differ(x, y) for x, y in zip(a, b)):
        raise ShapeRuleError(
            f"{op}: the source {show_shape(source)} must be the input {show_shape(input)} with dimension {pos} "
            f"as long as the index"
        )


def index_add(
    input: MaybeShape, dim: int, index: MaybeShape, source: MaybeShape, *, op: str = "index_add"
) -> MaybeShape:
    """`x.index_add(dim, index, source)`: a tensor of the input's shape.

    The index is a vector (or 0-d); `source` is the input with dim `dim` as long as the index
    (a 0-d input takes a 0-d source and one index).
    """
    count = _vector_index(index, op)
    if input is None:
        return None
    pos = _wrap(input, dim, op)
    if source is None or pos is None or rank(input) is None or rank(source) is None:
        return input
    if not (pos == 0 or pos < len(source)):
        raise ShapeRuleError(f"{op}: dimension {pos} is out of range for the source {show_shape(source)}")
    _count_matches(op, count, source, pos)
    both = bool(input) and bool(source)
    _slices_match(op, input, source, pos, (both, both))
    if len(input) == 1 or op == "index_reduce":
        # (index_add's kernel for inputs of more dims skips empty ones; index_reduce selects each index)
        _out_of_bounds(input, pos, index, op)
    return input


def index_copy(
    input: MaybeShape, dim: int, index: MaybeShape, source: MaybeShape, *, op: str = "index_copy"
) -> MaybeShape:
    """`x.index_copy(dim, index, source)`: a tensor of the input's shape.

    As `index_add`, except that a 0-d source or a 0-d input pairs with a 1-d tensor of one
    slice, and the indices must fall in the input's dim.
    """
    count = _vector_index(index, op)
    if input is None:
        return None
    pos = _wrap(input, dim, op)
    if source is None or pos is None or rank(input) is None or rank(source) is None:
        return input
    if not source:
        if count is not None and differ(count, const(1)):
            raise ShapeRuleError(f"{op}: a 0-d source takes an index of one element, not {show_shape(index)}")
    elif input and len(source) != len(input):
        raise ShapeRuleError(
            f"{op}: the source {show_shape(source)} must have as many dims as the input {show_shape(input)}"
        )
    _slices_match(op, input, source, pos, (bool(input), bool(source)))
    _count_matches(op, count, source, pos)
    _out_of_bounds(input, pos, index, op, slices=True)
    return input


def index_fill(
    input: MaybeShape, dim: int, index: MaybeShape, value: MaybeShape = (), *, op: str = "index_fill"
) -> MaybeShape:
    """`x.index_fill(dim, index, value)`: a tensor of the input's shape; the index is a vector (or 0-d), the
    value a number or a 0-d tensor (`()`, the default; None where unknown)."""
    _vector_index(index, op)
    fill_value(value, op)
    _out_of_bounds(input, _wrap(input, dim, op), index, op, slices=True)
    return input

