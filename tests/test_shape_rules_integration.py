"""Soundness against LibTorch (spec §7) of `trapezoid` and `cumulative_trapezoid` (`tyr.shape_rules.integration`)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, tensor

from tyr.shape_rules import UNKNOWN, ShapeRuleError, cumulative_trapezoid, trapezoid

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_trapezoid(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    y = data.draw(shapes_from(sizes, max_rank=3))
    dim = dim_of(data, y)
    x = data.draw(st.one_of(st.just(UNKNOWN), shapes_from(sizes, 1, 1), shapes_from(sizes, max_rank=3)))
    if y and data.draw(st.booleans()):  # mostly sample points that fit
        x = (y[dim % len(y)],) if data.draw(st.booleans()) else y

    def torch_rule(op):  # type: ignore[no-untyped-def]
        def run(y, x, dim):  # type: ignore[no-untyped-def]
            if x is UNKNOWN:
                return op(tensor(y), dx=0.5, dim=dim)
            return op(tensor(y), tensor(x), dim=dim)

        return run

    check(trapezoid, torch_rule(torch.trapezoid), y, x, dim, values=values)
    check(cumulative_trapezoid, torch_rule(torch.cumulative_trapezoid), y, x, dim, values=values)


def test_examples() -> None:
    assert trapezoid(shape("B", "T")) == shape("B")
    assert cumulative_trapezoid(shape("B", "T")) == shape("B", "T - 1")
    assert cumulative_trapezoid(shape("B", 0), shape(0)) == shape("B", 0)
    assert trapezoid(shape("B", "T"), shape("T"), dim=1) == shape("B")
    with pytest.raises(ShapeRuleError, match=r"trapezoid: x has 4 sample points but dim -1 of the input"):
        trapezoid(shape("B", "T"), shape(4))
