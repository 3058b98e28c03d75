"""Joining and splitting: `torch.cat`, `stack`, `hstack` / `vstack` / `dstack` / `column_stack`, `atleast_{1,2,3}d`,
`split`, `chunk`, `tensor_split`, `unbind`."""

from __future__ import annotations

from collections.abc import Sequence

from tyr._symbolic import Expr, const
from tyr.shape_rules.core import (
    UNKNOWN,
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    const_of,
    describe_dim,
    differ,
    divide_size,
    locate,
    min_rank,
    never_zero,
    rank,
    show,
    show_shape,
    show_sizes,
    variadic_index,
)
from tyr.shape_rules.index import slice_length


def _skipped(shape: Shape) -> bool | None:
    """Whether `torch.cat` skips this operand (a legacy rule: 1-d tensors of size 0), None if unknown."""
    v = variadic_index(shape)
    if v is None:
        if len(shape) != 1:
            return False
        size = shape[0]
        assert not isinstance(size, Variadic)
        return None if size is None else size.const_value == 0
    if min_rank(shape) > 1:
        return False
    fixed = [s for s in shape if not isinstance(s, Variadic)]
    return False if fixed and fixed[0] is not None and const_of(fixed[0]) != 0 else None


def _ranks_can_match(a: Shape, b: Shape) -> bool:
    """Whether some lengths of the shapes' Variadics give them one number of dims."""
    va, vb = variadic_index(a), variadic_index(b)
    if va is None and vb is None:
        return len(a) == len(b)
    if va is None:
        return len(a) >= min_rank(b)
    if vb is None:
        return len(b) >= min_rank(a)
    return a[va] != b[vb] or len(a) == len(b)  # one Variadic has one length


def cat(shapes: Sequence[MaybeShape], dim: int = 0, *, op: str = "cat") -> MaybeShape:
    """`torch.cat(tensors, dim)`: sizes along `dim` add up; every other dim must be equal (no broadcasting).

    All operands need the same number of dims, and none may be 0-d.  For backward
    compatibility torch skips 1-d operands of size 0 (`(0,)`) whatever the others' shapes.
    """
    if not shapes:
        raise ShapeRuleError(f"{op}: expected a non-empty list of tensors")
    for i, shape in enumerate(shapes):
        if shape is not None and rank(shape) == 0:
            raise ShapeRuleError(f"{op}: the 0-d tensor at position {i} cannot be concatenated")
    if any(s is None for s in shapes):
        return None
    known = [s for s in shapes if s is not None]
    skipped = [_skipped(s) for s in known]
    kept = [i for i, sk in enumerate(skipped) if sk is False]
    maybe = [i for i, sk in enumerate(skipped) if sk is None]
    if not kept:
        if not maybe:
            return (const(0),)  # torch does not even look at `dim` here
        if all(rank(known[i]) == 1 for i in maybe):
            return (None,)  # 1-d operands of unknown sizes: their sum, whichever are skipped
        return None
    if maybe:
        if all(rank(known[i]) == 1 for i in kept + maybe):
            kept = sorted(kept + maybe)  # 1-d throughout: an operand of size 0 adds nothing
        elif not all((rank(known[i]) or 0) >= 2 for i in kept):
            return None
        # otherwise the 1-d operands of unknown size are valid only if torch skips them
    first = known[kept[0]]
    pos = locate(first, dim, op, scalar_as_1d=False)
    if pos is None:
        return None
    out: list[Size | Variadic] = list(first)
    for i in kept[1:]:
        shape = known[i]
        if not _ranks_can_match(first, shape):
            raise ShapeRuleError(
                f"{op}: tensors must have the same number of dimensions: {show_shape(first)} at position "
                f"{kept[0]} and {show_shape(shape)} at position {i}"
            )
        if len(shape) != len(first) or variadic_index(shape) != variadic_index(first):
            return None
        for j, (a, b) in enumerate(zip(out, shape)):
            if isinstance(a, Variadic) or isinstance(b, Variadic):
                if a != b:
                    return None
                continue
            if j == pos:
                out[j] = None if a is None or b is None else a + b
            elif a is None:
                out[j] = b
            elif differ(a, b):
                raise ShapeRuleError(
                    f"{op}: sizes must match except in dimension {dim}: dimension {describe_dim(first, j)} is "
                    f"{show(a)} in the tensor at position {kept[0]} but {show(b)} at position {i}"
                )
    return tuple(out)


def cat_repeated(shape: MaybeShape, count: SizeArg, dim: int = 0) -> MaybeShape:
    """`torch.cat` of `count` tensors of one shape (a list of unknown length has count None)."""
    n = as_size(count)
    if n is not None and n.const_value == 0:
        raise ShapeRuleError("cat: expected a non-empty list of tensors")
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError("cat: a 0-d tensor cannot be concatenated")
    skipped = _skipped(shape)
    if skipped is True:
        return (const(0),)
    if skipped is None:
        return (None,) if rank(shape) == 1 else None
    pos = locate(shape, dim, "cat", scalar_as_1d=False)
    if pos is None:
        return None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    return (*shape[:pos], None if size is None or n is None else size * n, *shape[pos + 1 :])


def stack(shapes: Sequence[MaybeShape], dim: int = 0) -> MaybeShape:
    """`torch.stack(tensors, dim)`: equal shapes joined along a new dim of size `len(tensors)`."""
    if not shapes:
        raise ShapeRuleError("stack: expected a non-empty list of tensors")
    out: list[Size | Variadic] | None = None
    first_at = 0
    for i, shape in enumerate(shapes):
        if shape is None:
            continue
        if out is None:
            out, first_at = list(shape), i
            continue
        if not _ranks_can_match(tuple(out), shape):
            raise ShapeRuleError(
                f"stack: each tensor must have the same shape, but got {show_shape(tuple(out))} at position "
                f"{first_at} and {show_shape(shape)} at position {i}"
            )
        if len(shape) != len(out) or variadic_index(shape) != variadic_index(tuple(out)):
            return None
        for j, (a, b) in enumerate(zip(out, shape)):
            if isinstance(a, Variadic) or isinstance(b, Variadic):
                if a != b:
                    return None
            elif a is None:
                out[j] = b
            elif differ(a, b):
                raise ShapeRuleError(
                    f"stack: each tensor must have the same shape, but dimension {describe_dim(shape, j)} is "
                    f"{show(a)} at position {first_at} and {show(b)} at position {i}"
                )
    if out is None:
        return None
    # operands of unknown shape must match the known ones for the stack to be valid
    return _insert(tuple(out), dim, const(len(shapes)))


def stack_repeated(shape: MaybeShape, count: SizeArg, dim: int = 0) -> MaybeShape:
    """`torch.stack` of `count` tensors of one shape (a list of unknown length has count None)."""
    n = as_size(count)
    if n is not None and n.const_value == 0:
        raise ShapeRuleError("stack: expected a non-empty list of tensors")
    if shape is None:
        return None
    return _insert(shape, dim, n)


def _insert(shape: Shape, dim: int, size: Size) -> MaybeShape:
    pos = locate(shape, dim, "stack", extra=1, scalar_as_1d=False)
    if pos is None:
        return None
    return (*shape[:pos], size, *shape[pos:])


def atleast(shape: MaybeShape, n: int) -> MaybeShape:
    """`torch.atleast_{n}d(x)`: a tensor of fewer than `n` dims viewed with ones added.

    A 0-d tensor becomes `(1,)`, `(1, 1)` or `(1, 1, 1)`; a 1-d `(N,)` becomes `(1, N)` or
    `(1, N, 1)`; a 2-d `(A, B)` becomes `(A, B, 1)` for `n = 3`.  Larger tensors pass through.
    """
    if shape is None:
        return None
    if min_rank(shape) >= n:
        return shape
    if rank(shape) is None:
        return None
    one = const(1)
    if not shape:
        return (one,) * n
    if len(shape) == 1:
        return (one, shape[0]) if n == 2 else (one, shape[0], one)
    return (*shape, one)


def _atleast_all(shapes: Sequence[MaybeShape], n: int) -> list[MaybeShape]:
    return [atleast(s, n) for s in shapes]


def hstack(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.hstack(tensors)`: 1-d tensors (after `atleast_1d`) joined along dim 0, others along dim 1.

    Which dim depends on the first tensor's number of dims, unknown when its shape is.
    """
    if not shapes:
        raise ShapeRuleError("hstack: expected a non-empty list of tensors")
    lifted = _atleast_all(shapes, 1)
    first = lifted[0]
    if first is None or (rank(first) is None and min_rank(first) < 2):
        return None
    return cat(lifted, 0 if rank(first) == 1 else 1, op="hstack")


def vstack(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.vstack(tensors)` (and `row_stack`): `atleast_2d` of each, joined along dim 0."""
    return cat(_atleast_all(shapes, 2), 0, op="vstack")


def dstack(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.dstack(tensors)`: `atleast_3d` of each, joined along dim 2."""
    return cat(_atleast_all(shapes, 3), 2, op="dstack")


def column_stack(shapes: Sequence[MaybeShape]) -> MaybeShape:
    """`torch.column_stack(tensors)`: 0-d and 1-d tensors become columns `(N, 1)`, then all join along dim 1."""
    columns: list[MaybeShape] = []
    for shape in shapes:
        if shape is None or (min_rank(shape) < 2 and rank(shape) is None):
            columns.append(None)
        elif rank(shape) == 0:
            columns.append((const(1), const(1)))
        elif rank(shape) == 1:
            columns.append((shape[0], const(1)))
        else:
            columns.append(shape)
    return cat(columns, 1, op="column_stack")


# -- splitting ---------------------------------------------------------------------------------------


def _split_dim(shape: Shape, dim: int, op: str) -> tuple[int | None, Size]:
    if rank(shape) == 0:
        raise ShapeRuleError(f"{op}: expects a tensor with at least 1 dimension, not a 0-d one")
    pos = locate(shape, dim, op)
    if pos is None:
        return None, None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    return pos, size


def piece(shape: MaybeShape, dim: int, op: str, *, keeps_dim: bool = True) -> MaybeShape:
    """The shape every piece of a cut along `dim` has, where their number is unknown (`x.unbind(0)`
    of a dim of size `B`): the other dims, and `dim` itself of an unknown size where the pieces
    keep it (`split`, `chunk`, `tensor_split`)."""
    if shape is None:
        return None
    pos, _ = _split_dim(shape, dim, op)
    if pos is None:
        return None
    return (*shape[:pos], *((None,) if keeps_dim else ()), *shape[pos + 1 :])


def _pieces(shape: Shape, pos: int, sizes: Sequence[Size]) -> tuple[Shape, ...]:
    return tuple((*shape[:pos], s, *shape[pos + 1 :]) for s in sizes)


def split(
    shape: MaybeShape, split_size_or_sections: SizeArg | Sequence[SizeArg], dim: int = 0, *, op: str = "split"
) -> tuple[Shape, ...] | None:
    """`x.split(split_size_or_sections, dim)` / `torch.split` (and `unsafe_split`, `split_with_sizes`): a tuple of
    pieces along `dim`.

    With an int `split_size` the pieces have that size except a smaller last one (a size
    of 0 splits only a dim of size 0, giving one piece).  With a list of sizes, they must be
    non-negative and add up to the dim's size.  Returns None when the number of pieces
    depends on symbol values (`split(2)` of a dim of size `B`).
    """
    if isinstance(split_size_or_sections, (Expr, int)) or split_size_or_sections is None:
        return _split_size(shape, as_size(split_size_or_sections), dim, op)
    sections = [as_size(s) for s in split_size_or_sections]
    for s in sections:
        if (const_of(s) or 0) < 0:
            raise ShapeRuleError(f"{op}: section sizes must be non-negative, got {show_sizes(sections)}")
    if shape is None:
        return None
    pos, size = _split_dim(shape, dim, op)
    total: Size = const(0)
    for s in sections:
        total = None if total is None or s is None else total + s
    if differ(size, total):
        raise ShapeRuleError(
            f"{op}: section sizes {show_sizes(sections)} add up to {total}, but dimension {dim} "
            f"of {show_shape(shape)} is {show(size)}"
        )
    if pos is None:
        return None
    return _pieces(shape, pos, sections)


def _split_size(shape: MaybeShape, step: Size, dim: int, op: str) -> tuple[Shape, ...] | None:
    if step is not None and (const_of(step) or 0) < 0:
        raise ShapeRuleError(f"{op}: split_size must be non-negative, got {step}")
    if shape is None:
        return None
    pos, size = _split_dim(shape, dim, op)
    if step is not None and step.const_value == 0 and never_zero(size):
        raise ShapeRuleError(f"{op}: split_size 0 splits only a dim of size 0, not {show(size)}")
    if pos is None or size is None or step is None:
        return None
    count = _count(size, step)
    if count is None:
        return None
    full = count - 1 if count else 0
    last = size - step * full
    return _pieces(shape, pos, [step] * full + [last])


def _count(size: Expr, step: Expr) -> int | None:
    """How many pieces `split(step)` makes of a dim of `size`: max(ceil(size/step), 1)."""
    n, s = size.const_value, step.const_value
    if n is not None and s is not None:
        if s == 0:
            return 1  # only reached when n == 0
        return max((n + s - 1) // s, 1)
    quotient = (size // step).const_value
    if quotient is not None and (size // step) * step == size:
        return max(quotient, 1)
    return None


def chunk(shape: MaybeShape, chunks: int, dim: int = 0, *, op: str = "chunk") -> tuple[Shape, ...] | None:
    """`x.chunk(chunks, dim)`: `split` by `ceil(size / chunks)`, so there may be fewer than `chunks` pieces.

    A dim of size 0 gives `chunks` empty pieces.  `chunks` must be positive.
    """
    if chunks <= 0:
        raise ShapeRuleError(f"{op}: chunks must be greater than 0, got {chunks}")
    if shape is None:
        return None
    pos, size = _split_dim(shape, dim, op)
    if pos is None or size is None:
        return None
    if size.const_value == 0:
        return _pieces(shape, pos, [const(0)] * chunks)
    step = divide_size(size, chunks - 1, chunks)
    count = _count(size, step)
    if count is None:
        return None
    return _split_size(shape, step, dim, op)


def tensor_split(
    shape: MaybeShape, sections_or_indices: SizeArg | Sequence[SizeArg], dim: int = 0
) -> tuple[Shape, ...] | None:
    """`x.tensor_split(sections, dim)`: `sections` pieces along `dim`, the first `size % sections` of them
    one longer than `size // sections`; `x.tensor_split(indices, dim)`: the slices between the indices
    (`x[:i0]`, `x[i0:i1]`, ..., `x[ik:]` along `dim`; an index of unknown value is None).
    Returns None where the sizes depend on symbol values."""
    if isinstance(sections_or_indices, (Expr, int)) or sections_or_indices is None:
        indices, n = None, const_of(as_size(sections_or_indices))
        if n is not None and n <= 0:
            raise ShapeRuleError(f"tensor_split: the number of sections must be positive, not {n}")
    else:
        indices, n = sections_or_indices, None
    if shape is None:
        return None
    pos, size = _split_dim(shape, dim, "tensor_split")
    if pos is None:
        return None
    if size is None:  # as many pieces as asked for, of unknown sizes
        count = len(indices) + 1 if indices is not None else n
        return None if count is None else _pieces(shape, pos, [None] * count)
    if indices is not None:
        bounds = [0, *(UNKNOWN if i is None else i for i in indices)]
        return _pieces(shape, pos, [slice_length(size, slice(a, b)) for a, b in zip(bounds, [*bounds[1:], None])])
    if n is None:
        return None
    if size.const_value is not None:
        quotient, longer = divmod(size.const_value, n)  # the first `longer` pieces take one more
        return _pieces(shape, pos, [const(quotient + 1)] * longer + [const(quotient)] * (n - longer))
    if all(coefficient % n == 0 for _, coefficient in size.terms):
        return _pieces(shape, pos, [size // n] * n)  # `6*B` in 3: `2*B` each, at every size
    # `B` in 3 depends on `B % 3`, and unlike a size the code divides itself (§6), `tensor_split` is
    # made for sizes it does not divide: each piece's size is unknown (it may well be 1).
    return _pieces(shape, pos, [None] * n)


_DIRECTIONS = {"vsplit": (2, 0), "hsplit": (1, 1), "dsplit": (3, 2)}
"""Each directional split's least rank and the dim it splits (`hsplit` splits dim 0 of a 1-d tensor)."""


def directional_split(
    shape: MaybeShape, sections_or_indices: SizeArg | Sequence[SizeArg], op: str
) -> tuple[Shape, ...] | None:
    """`torch.vsplit / hsplit / dsplit(x, sections_or_indices)`: `tensor_split` along dim 0, 1 (0 for a
    1-d tensor) or 2 of a tensor of at least 2, 1 or 3 dims; a number of sections must divide the dim."""
    least, dim = _DIRECTIONS[op]
    if shape is None:
        return None
    if rank(shape) is not None and len(shape) < least:
        raise ShapeRuleError(f"{op}: needs a tensor of at least {least} dims, got {show_shape(shape)}")
    if op == "hsplit":
        if rank(shape) is None and min_rank(shape) < 2:
            return None
        dim = 1 if min_rank(shape) >= 2 else 0
    if not (isinstance(sections_or_indices, (Expr, int)) or sections_or_indices is None):
        return tensor_split(shape, sections_or_indices, dim)
    pos, size = _split_dim(shape, dim, op)
    n = const_of(as_size(sections_or_indices))
    if pos is None or size is None or n is None:
        return None
    if n <= 0 or size.const_value is not None and size.const_value % n:
        raise ShapeRuleError(f"{op}: dimension {dim} ({show(size)}) of {show_shape(shape)} does not divide into {n} sections")
    return _pieces(shape, pos, [size // n] * n)  # a symbol divided is a multiple of the divisor (§6)


def unbind(shape: MaybeShape, dim: int = 0) -> tuple[Shape, ...] | None:
    """`x.unbind(dim)`: one piece per index along `dim`, each without that dim."""
    if shape is None:
        return None
    if rank(shape) == 0:
        raise ShapeRuleError("unbind: a 0-d tensor has no dimension to unbind")
    pos = locate(shape, dim, "unbind")
    if pos is None:
        return None
    size = shape[pos]
    assert not isinstance(size, Variadic)
    count = const_of(size)
    if count is None:
        return None
    return tuple((*shape[:pos], *shape[pos + 1 :]) for _ in range(count))
