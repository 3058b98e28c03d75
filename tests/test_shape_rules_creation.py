"""Soundness of the creation rules against LibTorch (spec §7)."""

from __future__ import annotations

import warnings
from typing import Any

import pytest
import torch
from hypothesis import example, given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor

from tyr._symbolic import Expr, const, parse
from tyr.shape_rules import (
    UNKNOWN,
    ShapeRuleError,
    arange,
    eye,
    from_sizes,
    inclusive_range,
    linspace,
    meshgrid,
    tri_indices,
    window,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
CREATORS: dict[str, Any] = {
    "randn": lambda s: torch.randn(*s) if s else torch.randn(()),
    "zeros": lambda s: torch.zeros(s),
    "ones": lambda s: torch.ones(*s) if s else torch.ones(()),
    "empty": lambda s: torch.empty(s),
    "full": lambda s: torch.full(s, 7.0),
    "randint": lambda s: torch.randint(0, 5, s),
    "rand": lambda s: torch.rand(s),
    "as_strided": lambda s: torch.zeros(1).as_strided(s, (0,) * len(s)),  # every element the one stored
}


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_from_sizes(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    wanted = data.draw(st.lists(st.sampled_from([*sizes, const(-1)]), max_size=4))
    name = data.draw(st.sampled_from(sorted(CREATORS)))
    check(lambda s: from_sizes(s, name), lambda s: CREATORS[name](tuple(s)), wanted, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_arange(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    bound = st.one_of(st.integers(-4, 6).map(const), st.sampled_from(sizes), st.sampled_from(sizes).map(lambda e: -e))
    step = data.draw(st.one_of(st.integers(-3, 3).map(const), st.sampled_from([0.5, -1.5, 2.0])))
    start, end = data.draw(bound), data.draw(bound)
    form = data.draw(st.sampled_from(["end", "start end", "start end step"]))
    def given(x: Any) -> Any:
        return UNKNOWN if x is None else x  # a size the rule is not told is an int of unknown value

    if form == "end":
        check(lambda e: arange(given(e)), lambda e: torch.arange(e), end, values=values)
    elif form == "start end":
        check(lambda s, e: arange(given(s), given(e)), lambda s, e: torch.arange(s, e), start, end, values=values)
    else:
        check(lambda s, e, st_: arange(given(s), given(e), given(st_)), lambda s, e, st_: torch.arange(s, e, st_),
              start, end, step, values=values)


@settings(max_examples=examples(100), deadline=None)
@given(start=st.floats(-3, 3), end=st.floats(-3, 3), step=st.sampled_from([0.1, 0.25, 0.5, -0.3, 1.0, -2.0]))
def test_arange_with_floats(start: float, end: float, step: float) -> None:
    check(arange, lambda s, e, st_: torch.arange(s, e, st_), start, end, step)


@SYMBOLIC
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_linspace_and_eye(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    n = data.draw(st.sampled_from([*sizes, const(-1)]))
    check(linspace, lambda n: torch.linspace(0.0, 1.0, n), n, values=values)
    m = data.draw(st.sampled_from([None, *sizes, const(-2)]))
    check(lambda n, m_: eye(n, m_, has_m=m is not None), lambda n, m: torch.eye(n) if m is None else torch.eye(n, m),
          n, m, values=values)


WINDOWS = ("hann", "hamming", "blackman", "bartlett", "kaiser")


@SYMBOLIC
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_windows(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    n = data.draw(st.sampled_from([*sizes, const(-1)]))
    kind, periodic = data.draw(st.sampled_from(WINDOWS)), data.draw(st.booleans())
    op = f"{kind}_window"
    check(lambda n: window(n, op), lambda n: getattr(torch, op)(n, periodic), n, values=values)


@settings(max_examples=examples(150), deadline=None)
@given(start=st.one_of(st.integers(-4, 4), st.floats(-3, 3)), end=st.one_of(st.integers(-4, 4), st.floats(-3, 3)),
       step=st.sampled_from([1, 2, -1, -3, 0, 0.1, 0.25, 0.5, -0.3, 1.0, -2.0]))
@example(start=5e-324, end=0, step=0.1)  # a gap whose product with the step underflows to 0
def test_range(start: float, end: float, step: float) -> None:
    def run(s: float, e: float, st_: float) -> torch.Tensor:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # torch.range is deprecated
            return torch.range(s, e, st_)

    check(inclusive_range, run, start, end, step)
    assert inclusive_range(UNKNOWN, end, step) == (None,)


def test_examples() -> None:
    n = parse("N")
    assert from_sizes([32, n]) == shape(32, "N")
    assert arange(n) == shape("N")
    assert arange(0, n, 2) == shape("(N+1)//2")
    assert arange(n, 0, -1) == shape("N")
    assert arange(parse("T"), n) == shape("N - T")  # torch refuses T > N: wherever it gives a tensor, this is its size
    assert arange(3, n) == shape("N - 3")
    assert arange(UNKNOWN) == shape(None)
    assert arange(1, parse("N+1")) == shape("N")
    with pytest.raises(ShapeRuleError, match="points away"):
        arange(n, 0)
    with pytest.raises(ShapeRuleError, match="nonzero"):
        arange(0, n, 0)
    with pytest.raises(ShapeRuleError, match="negative"):
        from_sizes([2, -3])
    assert isinstance(n, Expr)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_meshgrid(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    shapes = data.draw(st.lists(shapes_from(sizes, max_rank=2), min_size=1, max_size=3))
    indexing = data.draw(st.sampled_from(["ij", "xy"]))
    check(lambda s: meshgrid(s, indexing), lambda s: torch.meshgrid(*(tensor(x) for x in s), indexing=indexing),
          shapes, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_tri_indices(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    row = data.draw(st.sampled_from(sizes))
    col = data.draw(st.one_of(st.just(row), st.sampled_from(sizes)))
    offset = data.draw(st.integers(-3, 3))
    for upper, op in ((False, torch.tril_indices), (True, torch.triu_indices)):
        check(lambda r, c: tri_indices(r, c, offset, upper=upper), lambda r, c: op(r, c, offset), row, col,
              values=values)
