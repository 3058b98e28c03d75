"""Broadcasting: elementwise binary ops, comparisons, `where`, `masked_fill`, `expand`, `sum_to_size`."""

from __future__ import annotations

from collections.abc import Sequence

from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    SizeArg,
    Variadic,
    as_size,
    describe_dim,
    differ,
    fill_value,
    is_one,
    min_rank,
    never_one,
    may_be_minus_one,
    same,
    show,
    show_shape,
    variadic_index,
)
from tyr.shape_rules.creation import from_sizes


def broadcast_sizes(a: Size, b: Size) -> tuple[bool, Size]:
    """Broadcast two sizes: `(True, size)`, or `(False, None)` when they provably clash.

    Equal sizes, or a 1 against anything, broadcast.  An unknown size never clashes: against
    a constant `c` other than 1 the result is `c`, since the unknown one must be 1 or `c`;
    against a symbol it is unknown, since the symbol may be 1 (one that cannot, `T + 1`, is kept).
    """
    if a is None:
        return True, (b if never_one(b) else None)
    if b is None:
        return True, (a if never_one(a) else None)
    if same(a, b) or is_one(b):
        return True, a
    if is_one(a):
        return True, b
    return False, None


def _operand_names(count: int, operands: Sequence[str] | None) -> Sequence[str]:
    if operands is not None:
        return operands
    if count == 2:
        return ("the left operand", "the right operand")
    return tuple(f"operand {i}" for i in range(count))


Labelled = Sequence[tuple[Size, str]]
"""Sizes each paired with how a message names its dim (`1`, or `-1` past a Variadic)."""


def _labelled(shape: Shape, start: int, stop: int) -> Labelled:
    out: list[tuple[Size, str]] = []
    for pos in range(start, stop):
        item = shape[pos]
        assert not isinstance(item, Variadic)
        out.append((item, describe_dim(shape, pos)))
    return out


def _broadcast_aligned(parts: Sequence[Labelled], shapes: Sequence[Shape], names: Sequence[str], op: str) -> Shape:
    """Broadcast Variadic-free runs of dims, aligned at their ends (`shapes` name the operands in messages)."""
    length = max((len(p) for p in parts), default=0)
    out: list[Size] = []
    for i in range(1, length + 1):
        acc: Size = None
        acc_from: tuple[int, str] | None = None  # the operand and dim that fixed `acc`
        for k, part in enumerate(parts):
            if i > len(part):
                continue
            item, label = part[-i]
            if acc_from is None:
                acc, acc_from = item, (k, label)
                continue
            ok, merged = broadcast_sizes(acc, item)
            if not ok:
                k0, label0 = acc_from
                raise ShapeRuleError(
                    f"{op}: dimension {label0} of {names[k0]} ({show(acc)}) does not broadcast with "
                    f"dimension {label} of {names[k]} ({show(item)}); shapes {show_shape(shapes[k0])} "
                    f"and {show_shape(shapes[k])}"
                )
            if acc is None or is_one(acc):
                acc_from = (k, label)
            acc = merged
        out.append(acc)
    return tuple(reversed(out))


def broadcast_shapes(*shapes: MaybeShape, op: str = "broadcast", operands: Sequence[str] | None = None) -> MaybeShape:
    """The shape torch broadcasts `shapes` to (elementwise `+ - * / ** %`, comparisons, `torch.broadcast_shapes`).

    Shapes are aligned at their last dims; at each position the sizes must be equal or 1,
    and a missing dim counts as 1.  `Tensor[*Batch, D] + Tensor[D]` is `(*Batch, D)`; two
    shapes with the same `Variadic` broadcast when their dims after it line up.  Raises
    `ShapeRuleError` naming both dims when two sizes provably differ and neither is 1.
    """
    names = _operand_names(len(shapes), operands)
    if any(s is None for s in shapes):
        # the known operands must still broadcast with each other; the result is unknown
        present = [k for k, s in enumerate(shapes) if s is not None]
        if len(present) > 1:
            broadcast_shapes(*(shapes[k] for k in present), op=op, operands=[names[k] for k in present])
        return None
    known = [s for s in shapes if s is not None]
    vs = [variadic_index(s) for s in known]
    if all(v is None for v in vs):
        return _broadcast_aligned([_labelled(s, 0, len(s)) for s in known], known, names, op)
    # The positions every operand has fixed (or no) dims at: the dims after the Variadics.
    tail_len = min(len(s) - v - 1 for s, v in zip(known, vs) if v is not None)
    tails = [_labelled(s, max(len(s) - tail_len, 0 if v is None else v + 1), len(s)) for s, v in zip(known, vs)]
    tail = _broadcast_aligned(tails, known, names, op)
    variadics = {s[v] for s, v in zip(known, vs) if v is not None}
    if len(variadics) > 1 or any(
        len(s) > tail_len if v is None else len(s) - v - 1 != tail_len for s, v in zip(known, vs)
    ):
        return None  # where the earlier dims line up depends on the Variadics' lengths
    (var,) = variadics
    assert isinstance(var, Variadic)
    with_var = [k for k, v in enumerate(vs) if v is not None]
    heads = [_labelled(known[k], 0, vs[k] or 0) for k in with_var]
    head = _broadcast_aligned(heads, [known[k] for k in with_var], [names[k] for k in with_var], op)
    return (*head, var, *tail)


def where(condition: MaybeShape, input: MaybeShape, other: MaybeShape) -> MaybeShape:
    """`torch.where(condition, input, other)`: the three shapes broadcast together."""
    return broadcast_shapes(condition, input, other, op="where", operands=("the condition", "input", "other"))


def masked_fill(input: MaybeShape, mask: MaybeShape, value: MaybeShape = (), *, op: str = "masked_fill") -> MaybeShape:
    """`input.masked_fill(mask, value)` and `masked_scatter(mask, source)` (out of place): torch broadcasts
    `input` and `mask` together; a fill's value is a number or a 0-d tensor (`()`, the default; None
    where unknown).

    (The in-place `masked_fill_` keeps `input`'s shape and needs `mask` to broadcast to it;
    see `broadcasts_to`.)
    """
    fill_value(value, op)
    return broadcast_shapes(input, mask, op=op, operands=("input", "the mask"))


def fill(input: MaybeShape, value: MaybeShape, *, op: str = "fill_") -> MaybeShape:
    """`x.fill_(value)` / `torch.fill(x, value)`: `x`'s shape; the value is a number or a 0-d tensor."""
    fill_value(value, op)
    return input


def broadcasts_to(shape: MaybeShape, target: MaybeShape, op: str = "broadcast_to") -> MaybeShape:
    """`target`, after checking that `shape` broadcasts to it without growing (in-place ops, `expand_as`)."""
    out = broadcast_shapes(shape, target, op=op, operands=("the operand", "the target"))
    if out is None or target is None:
        return target
    if variadic_index(target) is None and variadic_index(out) is None and len(out) > len(target):
        raise ShapeRuleError(
            f"{op}: shape {show_shape(shape)} has more dimensions than the target {show_shape(target)}"
        )
    if variadic_index(out) is None and variadic_index(target) is None:
        for pos, (o, t) in enumerate(zip(out, target, strict=True)):
            assert not isinstance(o, Variadic) and not isinstance(t, Variadic)
            if differ(o, t):
                raise ShapeRuleError(
                    f"{op}: dimension {pos} of the operand ({show(o)}) cannot broadcast to the target's "
                    f"size {show(t)}; shapes {show_shape(shape)} and {show_shape(target)}"
                )
    return target


def sum_to_size(shape: MaybeShape, sizes: Sequence[SizeArg], op: str = "sum_to_size") -> MaybeShape:
    """`x.sum_to_size(*size)`: `x` summed down to `size`, which must broadcast to `x`'s shape (the reverse of
    `expand`)."""
    out = from_sizes(sizes, op=op)
    broadcasts_to(out, shape, op=op)
    return out


def expand(shape: MaybeShape, sizes: Sequence[SizeArg], op: str = "expand") -> MaybeShape:
    """`x.expand(*sizes)`: each size keeps a dim (-1 or the same size) or grows a dim of size 1.

    `sizes` may be longer than `x.shape`: the extra sizes make new leading dims, which may
    not be -1.  A size of -1 (the int or a constant expression) copies the input's size.
    `torch.broadcast_to(x, sizes)` is this rule too (`op` names it in messages).
    """
    wanted = [as_size(s) for s in sizes]
    keep = [w is not None and w.const_value == -1 for w in wanted]
    for i, w in enumerate(wanted):
        if w is not None and not keep[i] and (w.const_value or 0) < 0:
            raise ShapeRuleError(f"{op}: size {w} for dimension {i} is negative")
    if shape is None:
        return tuple(None if k else w for w, k in zip(wanted, keep))
    if min_rank(shape) > len(wanted):
        raise ShapeRuleError(
            f"{op}: {len(wanted)} sizes given for the tensor {show_shape(shape)}, which has more dimensions"
        )
    out: list[Size] = []
    v = variadic_index(shape)
    for i, (w, k) in enumerate(zip(wanted, keep)):
        from_end = len(wanted) - i  # 1 for the last size
        after = len(shape) if v is None else len(shape) - v - 1  # dims known from the end
        if v is None and from_end > len(shape):
            if k:
                raise ShapeRuleError(f"{op}: -1 is not allowed for the new leading dimension {i}")
            out.append(w)
            continue
        have: Size = None
        if from_end <= after:
            item = shape[len(shape) - from_end]
            assert not isinstance(item, Variadic)
            have = item
        elif k:
            out.append(None)  # -1 inside the Variadic (or a new dim, which torch rejects)
            continue
        if k:
            out.append(have)
        elif may_be_minus_one(w):
            # `b - 2` is -1 at `b = 1`, where torch keeps the dim: the size is `have` or `w`
            out.append(have if have is not None and never_one(have) else None)
        elif have is None:
            out.append(w)  # an unknown size must be 1 or `w`
        elif w is None:
            out.append(have if never_one(have) else None)  # unknown: -1, `have`, or anything if `have` is 1
        elif same(have, w) or is_one(have):
            out.append(w)
        else:
            raise ShapeRuleError(
                f"{op}: dimension {describe_dim(shape, len(shape) - from_end)} of the tensor has size "
                f"{show(have)}, which is not 1, and cannot be expanded to {show(w)}; tensor {show_shape(shape)}"
            )
    return tuple(out)
