"""Ops whose result size depends on the values: `masked_select`, `nonzero` / `argwhere`, one-argument `where`,
`unique` / `unique_consecutive`.

The number of elements picked is unknown; the number of dims, and whether the
arguments fit together, are not.
"""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes
from tyr.shape_rules.core import MaybeShape, Shape, ShapeRuleError, Variadic, const_of, locate, rank, show_shape


def masked_select(input: MaybeShape, mask: MaybeShape) -> MaybeShape:
    """`x.masked_select(mask)`: the elements where the mask (broadcast with `x`) is true, as a 1-d tensor."""
    broadcast_shapes(input, mask, op="masked_select", operands=("input", "mask"))
    return (None,)


def nonzero(shape: MaybeShape) -> MaybeShape:
    """`torch.nonzero(x)` / `argwhere`: one row of indices per non-zero element, `(?, ndim)`."""
    if shape is None or rank(shape) is None:
        return None
    return (None, const(len(shape)))


def nonzero_tuple(shape: MaybeShape) -> tuple[Shape, ...] | None:
    """`torch.nonzero(x, as_tuple=True)` / `torch.where(condition)`: one 1-d tensor of indices per dim
    (a 0-d tensor counts as 1-d)."""
    if shape is None or rank(shape) is None:
        return None
    return tuple((None,) for _ in range(max(len(shape), 1)))


def unique(
    shape: MaybeShape, dim: int | None = None, return_inverse: bool = False, return_counts: bool = False,
    *, op: str = "unique",
) -> MaybeShape | tuple[MaybeShape, ...]:
    """`x.unique(dim=...)` / `unique_consecutive`: the distinct values (or slices along `dim`), how many is unknown.

    Without `dim` they form a 1-d tensor; along `dim` the input keeps its other dims, and none of
    them may be 0.  With `return_inverse` and `return_counts` the result is a tuple: the index of
    each element's value (the input's shape, or `(x.shape[dim],)`) and the count of each value.
    """
    out: MaybeShape = (None,)
    inverse: MaybeShape = shape
    if dim is not None:
        pos = None if shape is None else locate(shape, dim, op, scalar_as_1d=False)
        out, inverse = None, (None,)
        if shape is not None and pos is not None:
            out = tuple(None if i == pos else s for i, s in enumerate(shape))
            inverse = (shape[pos],)
            if any(const_of(s) == 0 for i, s in enumerate(shape) if i != pos and not isinstance(s, Variadic)):
                raise ShapeRuleError(
                    f"{op}: the input {show_shape(shape)} has a dim of size 0 besides dim {dim}, across which "
                    f"{op} cannot compare"
                )
    extra = [inverse] if return_inverse else []
    extra += [(None,)] if return_counts else []
    return (out, *extra) if extra else out
