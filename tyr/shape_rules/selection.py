"""Ops whose result size depends on the values: `masked_select`, `nonzero` / `argwhere`, one-argument `where`.

The number of elements picked is unknown; the number of dims, and whether the
arguments fit together, are not.
"""

from __future__ import annotations

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcast_shapes
from tyr.shape_rules.core import MaybeShape, Shape, rank


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
