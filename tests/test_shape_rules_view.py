"""Soundness of view/reshape/flatten/unflatten/squeeze/unsqueeze/repeat against LibTorch (spec §7)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr, const, parse
from tyr.shape_rules import (
    ShapeRuleError,
    Variadic,
    flatten,
    repeat,
    reshape,
    squeeze,
    unflatten,
    unsqueeze,
    view,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
DIMS = st.integers(-5, 4)


@st.composite
def target_sizes(draw: st.DrawFn, x: tuple[Expr, ...], sizes: list[Expr], min_size: int = 0) -> list[Expr]:
    """Sizes to view `x` as: often a regrouping of its own dims, sometimes with a -1, sometimes wrong."""
    dims = list(draw(st.permutations(x)))
    out: list[Expr] = []
    while dims:
        take = draw(st.integers(1, 2))
        group, dims = dims[:take], dims[take:]
        size = const(1)
        for g in group:
            size = size * g
        out.append(size)
    if not draw(st.integers(0, 3)):
        out = draw(st.lists(st.sampled_from(sizes), max_size=4))
    if draw(st.booleans()):
        out.append(const(1))
    for _ in range(draw(st.integers(0, 2))):
        if out or draw(st.booleans()):
            out.insert(draw(st.integers(0, len(out))), const(draw(st.sampled_from([-1, -1, -1, -2]))))
    if len(out) < min_size:
        out.append(const(-1))
    return out


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_view_and_reshape(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    wanted = data.draw(target_sizes(x, sizes))
    check(view, lambda x, w: tensor(x).view(w), x, wanted, values=values)
    check(reshape, lambda x, w: tensor(x).reshape(w), x, wanted, values=values)


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_view_with_a_variadic(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    x = data.draw(shapes_from(sizes, max_rank=3))
    wanted = data.draw(target_sizes(x, sizes))
    check(view, lambda x, w: tensor(x).view(w), with_variadic(data, x, values), wanted, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_flatten(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    start, end = data.draw(st.sampled_from([0, 0, *range(-4, 4)])), data.draw(st.sampled_from([-1, -1, *range(-4, 4)]))
    check(flatten, lambda x, s, e: tensor(x).flatten(s, e), x, start, end, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_unflatten(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    dim = data.draw(DIMS)
    target = (x[dim],) if -len(x) <= dim < len(x) else ()
    if data.draw(st.booleans()) and target and target[0].const_value is None:
        target = (target[0], const(1))  # symbolic sizes are hard to split: keep them whole
    wanted = data.draw(target_sizes(target, sizes, min_size=data.draw(st.integers(0, 1))))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    check(unflatten, lambda x, d, w: tensor(x).unflatten(d, w), x, dim, wanted, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_squeeze(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    dim = data.draw(st.one_of(st.none(), DIMS, st.lists(DIMS, max_size=3).map(tuple)))
    check(squeeze, lambda x, d: tensor(x).squeeze() if d is None else tensor(x).squeeze(d), x, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_unsqueeze(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    check(unsqueeze, lambda x, d: tensor(x).unsqueeze(d), x, data.draw(st.integers(-6, 5)), values=values)


@SYMBOLIC
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_repeat(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    counts = data.draw(st.lists(st.sampled_from([*sizes, const(-1)]), max_size=5))
    check(repeat, lambda x, c: tensor(x).repeat(c), x, counts, values=values)


@SYMBOLIC
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_repeat_of_an_unknown_shape(symbolic: bool, data: st.DataObject) -> None:
    """The result of repeating a tensor whose shape the rule is not told depends only on what it is told."""
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    counts = data.draw(st.lists(st.sampled_from([*sizes, const(0), const(-1)]), max_size=5))
    check(lambda x, c: repeat(None, c), lambda x, c: tensor(x).repeat(c), x, counts, values=values, told_less=True)


def test_view_solves_symbolic_sizes() -> None:
    assert view(shape("B*12"), [-1, 3, 4]) == shape("B", 3, 4)
    assert view(shape("B", "T", "C"), [parse("B"), parse("T"), 4, parse("C//4")]) == shape("B", "T", 4, "C//4")
    # the head merge after a split: C is a multiple of H (SHAPES.md §6), so H*(C//H) is C
    assert view(shape("B", "T", "H", "C//H"), [parse("B"), parse("T"), parse("C")]) == shape("B", "T", "C")
    assert view(shape("B", "T", "H", "C//H"), [parse("B"), parse("T"), -1]) == shape("B", "T", "C")
    # valid only for B a multiple of 5, and then the size is 12*(B//5)
    assert view(shape("B", 12), [-1, 5]) == shape("12*(B//5)", 5)
    with pytest.raises(ShapeRuleError, match="elements"):
        view(shape("B", "T", "H", "C//H"), [parse("B"), parse("T"), parse("2*C")])
    assert view(shape("B", None), [-1]) == shape(None)
    assert view(shape(Variadic("Batch"), "D"), [-1, parse("D")]) == shape(None, "D")
    with pytest.raises(ShapeRuleError, match="does not divide"):
        view(shape("B", "T", 12), [parse("B"), parse("T"), 5, -1])
    with pytest.raises(ShapeRuleError, match=r"has 4\*B elements but the tensor \(B, 2\) has 2\*B"):
        view(shape("B", 2), [parse("B"), 4])
    with pytest.raises(ShapeRuleError, match="only one dimension"):
        view(shape(4), [-1, -1])


def test_flatten_and_squeeze_with_variadics() -> None:
    batch = Variadic("Batch")
    assert flatten(shape(batch, "T", "D"), 0, -2) == shape(None, "D")
    assert flatten(shape(batch, "T", "D"), -2) == shape(batch, "T*D")
    assert squeeze(shape(batch, 1, "D"), -2) == shape(batch, "D")
    assert squeeze(shape("B", 1)) is None  # B may be 1
    assert squeeze(shape("T+1", 1, "2*B")) == shape("T+1", "2*B")  # at least 2 at every size: never squeezed
    assert squeeze(shape("B", "T+1"), (1,)) == shape("B", "T+1")
    assert unsqueeze(shape(batch, "D"), -1) == shape(batch, "D", 1)
    assert repeat(shape(batch, "D"), [2, 3, 4]) == shape(None, None, "4*D")
