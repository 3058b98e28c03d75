"""Soundness of flip, roll, rot90, movedim, narrow, select, diagonal, the *_scatter ops that fill their views, unfold,
repeat_interleave, tile, pixel_shuffle and view_as_complex/real against LibTorch (spec §7)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import (
    check,
    dim_of,
    draw_case,
    examples,
    shape,
    shapes_from,
    symbols_in,
    tensor,
    with_variadic,
)

from tyr._symbolic import const
from tyr.shape_rules import (
    UNKNOWN,
    Ints,
    ShapeRuleError,
    Variadic,
    diagonal,
    flip,
    flip_lr,
    movedim,
    narrow,
    pixel_shuffle,
    repeat_interleave,
    repeat_interleave_by,
    roll,
    rot90,
    scatter_view,
    select,
    slice_along,
    tile,
    unfold,
    view_as_complex,
    view_as_real,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
DIMS = st.integers(-4, 3)


def _hide_ints(data: st.DataObject, arg: int | list[int]) -> Ints:
    """`arg` as the checker may read it: an int of unknown value is `(UNKNOWN,)`, a sequence may have
    unknown items or an unknown length (`UNKNOWN`)."""
    if isinstance(arg, int):
        return arg if data.draw(st.booleans()) else (UNKNOWN,)
    if data.draw(st.booleans()):
        return UNKNOWN
    return tuple(UNKNOWN if data.draw(st.booleans()) else i for i in arg)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_flip_roll_rot90(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    dims = data.draw(st.lists(DIMS, max_size=3))
    check(flip, lambda x, d: torch.flip(tensor(x), d), x, dims, values=values)
    check(lambda x: flip_lr(x), lambda x: torch.fliplr(tensor(x)), x, values=values)
    check(lambda x: flip_lr(x, up_down=True), lambda x: torch.flipud(tensor(x)), x, values=values)
    shifts = data.draw(st.one_of(st.integers(-2, 2), st.lists(st.integers(-2, 2), max_size=3)))
    roll_dims = data.draw(st.one_of(st.none(), DIMS, st.lists(DIMS, max_size=3)))
    check(roll, lambda x, s, d: torch.roll(tensor(x), s, d), x, shifts, roll_dims, values=values)
    hidden_shifts = _hide_ints(data, shifts)
    hidden_dims = None if roll_dims is None else _hide_ints(data, roll_dims)
    check(
        lambda x, s, d: roll(x, hidden_shifts, hidden_dims), lambda x, s, d: torch.roll(tensor(x), s, d),
        x, shifts, roll_dims, values=values, told_less=True,
    )
    k = data.draw(st.integers(-3, 3))
    pair = data.draw(st.one_of(st.tuples(DIMS, DIMS), st.lists(DIMS, max_size=3)))
    check(rot90, lambda x, k, d: torch.rot90(tensor(x), k, d), x, k, pair, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_movedim(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    n = data.draw(st.integers(0, 3))
    if data.draw(st.booleans()):
        source, destination = data.draw(DIMS), data.draw(DIMS)
    else:
        source = data.draw(st.lists(DIMS, min_size=n, max_size=n))
        destination = data.draw(st.one_of(st.lists(DIMS, min_size=n, max_size=n), st.lists(DIMS, max_size=3)))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    check(movedim, lambda x, s, d: tensor(x).movedim(s, d), x, source, destination, values=values)


def _src_for(data: st.DataObject, view: object, sizes: list) -> tuple:  # type: ignore[type-arg]
    """Mostly the view's own shape (where the rule knows it), else any shape: the source a *_scatter writes."""
    known = isinstance(view, tuple) and None not in view
    if known and data.draw(st.integers(0, 3)):
        return view  # type: ignore[return-value]
    return data.draw(shapes_from(sizes, max_rank=3))


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_scatter_views(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    dim = dim_of(data, x)
    told = [s for s in sizes if not any(n.startswith("U") for n in symbols_in(s))]  # (a hidden bound reads as omitted)
    bound = st.sampled_from([*told, const(0), const(-1), const(-2), const(9), None])
    start, end, step = data.draw(bound), data.draw(bound), data.draw(st.sampled_from([*told, const(0), const(-1)]))

    def rule(x, s, d, a, b, k):  # type: ignore[no-untyped-def]
        return scatter_view(x, s, slice_along(x, d, a, b, k, op="slice_scatter"), op="slice_scatter")

    def view(op):  # type: ignore[no-untyped-def]
        try:
            return op()
        except ShapeRuleError:
            return None

    check(slice_along, lambda x, d, a, b, k: torch.ops.aten.slice(tensor(x), d, a, b, k), x, dim, start, end, step,
          values=values)
    src = _src_for(data, view(lambda: slice_along(x, dim, start, end, step)), sizes)
    check(rule, lambda x, s, d, a, b, k: torch.slice_scatter(tensor(x), tensor(s), d, a, b, k), x, src, dim, start,
          end, step, values=values)
    index = start if start is not None else const(0)
    src = _src_for(data, view(lambda: select(x, dim, index)), sizes)
    check(lambda x, s, d, i: scatter_view(x, s, select(x, d, i), op="select_scatter"),
          lambda x, s, d, i: torch.select_scatter(tensor(x), tensor(s), d, i), x, src, dim, index, values=values)
    offset, d1, d2 = data.draw(st.integers(-3, 3)), dim_of(data, x), dim_of(data, x)
    src = _src_for(data, view(lambda: diagonal(x, offset, d1, d2)), sizes)
    check(lambda x, s, o, a, b: scatter_view(x, s, diagonal(x, o, a, b), op="diagonal_scatter"),
          lambda x, s, o, a, b: torch.diagonal_scatter(tensor(x), tensor(s), o, a, b), x, src, offset, d1, d2,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_narrow_diagonal_unfold(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    dim = dim_of(data, x)
    bound = st.sampled_from([*sizes, const(0), const(-1), const(-2), *(-s for s in sizes)])
    start, length = data.draw(bound), data.draw(st.sampled_from([*sizes, const(0), const(-1)]))
    check(narrow, lambda x, d, s, n: tensor(x).narrow(d, s, n), x, dim, start, length, values=values)
    check(narrow, lambda x, d, s, n: tensor(x).narrow_copy(d, s, n), x, dim, start, length, values=values)
    check(select, lambda x, d, i: tensor(x).select(d, i), x, dim, start, values=values)
    offset = data.draw(st.integers(-3, 3))
    d1, d2 = dim_of(data, x), dim_of(data, x)
    check(diagonal, lambda x, o, a, b: tensor(x).diagonal(o, a, b), x, offset, d1, d2, values=values)
    size, step = data.draw(st.sampled_from([*sizes, const(0)])), data.draw(st.sampled_from([*sizes, const(0)]))
    check(unfold, lambda x, d, n, s: tensor(x).unfold(d, n, s), x, dim, size, step, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_repeat_interleave_and_tile(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    count = data.draw(st.sampled_from([*sizes, const(0), const(-1)]))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x))))
    check(repeat_interleave, lambda x, c, d: tensor(x).repeat_interleave(c, dim=d), x, count, dim, values=values)
    reps = data.draw(st.lists(st.sampled_from([*sizes, const(0)]), max_size=4))
    check(tile, lambda x, r: tensor(x).tile(r), x, reps, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_repeat_interleave_by_a_tensor_of_counts(symbolic: bool, data: st.DataObject) -> None:
    """Counts of 0, 1 or 2 dims, of sizes drawn with the input's (so that they often match): the repeated
    size is the counts' sum, a value the rule leaves unknown."""
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    counts = data.draw(shapes_from([*sizes, const(1)], max_rank=2))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x))))
    output_size = data.draw(st.one_of(st.none(), st.sampled_from(sizes)))
    # (an output_size that is not the counts' sum is an error whose verdict is the counts' values)
    check(repeat_interleave_by, lambda x, r, d, n: tensor(x).repeat_interleave(torch.full(r, 2), dim=d, output_size=n),
          x, counts, dim, output_size, values=values, may_give_up=True, told_less=output_size is not None)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_pixel_shuffle(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    factor = data.draw(st.integers(0, 3))
    x = data.draw(shapes_from(sizes, max_rank=4))
    if len(x) >= 3 and data.draw(st.booleans()):
        c, h, w = x[-3:]
        grow = factor or 1
        x = (*x[:-3], c * grow * grow, h * grow, w * grow)  # mostly divisible
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values, at=0)
    check(pixel_shuffle, lambda x, r: F.pixel_shuffle(tensor(x), r), x, factor, values=values)
    check(lambda x, r: pixel_shuffle(x, r, inverse=True), lambda x, r: F.pixel_unshuffle(tensor(x), r), x, factor,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_complex_views(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.booleans()):
        x = (*x, const(2))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    check(view_as_complex, lambda x: torch.view_as_complex(tensor(x)), x, values=values)
    check(view_as_real, lambda x: torch.view_as_real(tensor(x, torch.complex64)), x, values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    assert movedim(shape("B", "T", "H", "D"), 2, 1) == shape("B", "H", "T", "D")
    assert narrow(shape("B", "T"), 1, 0, const(3)) == shape("B", 3)
    assert unfold(shape("B", "T", "D"), 1, 4, 4) == shape("B", "(T - 4)//4 + 1", "D", 4)
    assert repeat_interleave(shape("B", "H", "T", "D"), 4, dim=1) == shape("B", "4*H", "T", "D")
    assert pixel_shuffle(shape("B", "4*C", "H", "W"), 2) == shape("B", "C", "2*H", "2*W")
    assert view_as_complex(shape(batch, "T", "D//2", 2)) == shape(batch, "T", "D//2")
    assert diagonal(shape("N", "N")) == shape("N")
    assert rot90(shape("B", "H", "W"), 1, (1, 2)) == shape("B", "W", "H")
    with pytest.raises(ShapeRuleError, match="last dim must have size 2"):
        view_as_complex(shape("T", "D"))
    with pytest.raises(ShapeRuleError, match="must be divisible by 4"):
        pixel_shuffle(shape("B", 6, "H", "W"), 2)
