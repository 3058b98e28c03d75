"""Soundness against LibTorch (spec §7) of `cartesian_prod`, `combinations`, `block_diag`
(`tyr.shape_rules.combinatorics`)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import const
from tyr.shape_rules import ShapeRuleError, block_diag, cartesian_prod, combinations, pdist, vander

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_cartesian_prod(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    vectors = st.one_of(shapes_from(sizes, 1, 1), shapes_from(sizes, 1, 1), shapes_from(sizes, 0, 3))
    xs = data.draw(st.lists(vectors, max_size=4))
    if xs and data.draw(st.integers(0, 5)) == 0:
        xs[0] = with_variadic(data, xs[0], values)
    check(cartesian_prod, lambda xs: torch.cartesian_prod(*(tensor(x) for x in xs)), xs, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_combinations(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(st.one_of(shapes_from(sizes, 1, 1), shapes_from(sizes, 1, 1), shapes_from(sizes, 0, 2)))
    r, replace = data.draw(st.integers(-1, 4)), data.draw(st.booleans())
    check(combinations, lambda x, r, w: torch.combinations(tensor(x), r=r, with_replacement=w), x, r, replace,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_pdist(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(st.one_of(shapes_from(sizes, 2, 2), shapes_from(sizes, 0, 3)))
    if data.draw(st.integers(0, 5)) == 0:
        x = with_variadic(data, x, values)
    check(pdist, lambda x: torch.pdist(tensor(x)), x, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_block_diag(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    xs = data.draw(st.lists(st.one_of(shapes_from(sizes, 0, 2), shapes_from(sizes, 0, 3)), max_size=4))
    if xs and data.draw(st.integers(0, 5)) == 0:
        xs[-1] = with_variadic(data, xs[-1], values)
    check(block_diag, lambda xs: torch.block_diag(*(tensor(x) for x in xs)), xs, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_vander(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(st.one_of(shapes_from(sizes, 1, 1), shapes_from(sizes, 0, 3)))
    n = data.draw(st.one_of(st.none(), st.integers(-1, 4)))
    check(vander, lambda x, n: torch.vander(tensor(x), N=n), x, n, values=values)


def test_examples() -> None:
    assert cartesian_prod([shape("D"), shape(3)]) == shape("3*D", 2)
    assert cartesian_prod([shape("D")]) == shape("D")
    assert combinations(shape(4)) == shape(6, 2)
    assert combinations(shape("N"), 2) == (None, const(2))  # N*(N-1)//2 has no exact form
    assert combinations(shape("N"), 1) == shape("N", 1)
    assert combinations(shape("N"), 0) == shape(0)
    assert block_diag([shape(), shape("D"), shape(2, 3)]) == shape(4, "D + 4")
    with pytest.raises(ShapeRuleError, match=r"cartesian_prod: the tensor at position 1 must be 1-d, not \(2, 3\)"):
        cartesian_prod([shape(3), shape(2, 3)])
    with pytest.raises(ShapeRuleError, match=r"block_diag: the tensor at position 0 must have at most 2 dims"):
        block_diag([shape(1, 2, 3)])
