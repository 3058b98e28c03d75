"""Soundness of basic indexing against LibTorch (spec §7)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr, const, parse, sym
from tyr.shape_rules import UNKNOWN, ShapeRuleError, Variadic, index, slice_length

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
UNKNOWN_INT = sym("V0")  # an int the rule is told nothing about (UNKNOWN); torch gets values["V0"]


def _hide(obj: Any) -> Any:
    if isinstance(obj, Expr) and obj.symbol_name == "V0":
        return UNKNOWN
    if isinstance(obj, slice):
        return slice(_hide(obj.start), _hide(obj.stop), _hide(obj.step))
    return obj


def rule(x: Any, items: Any) -> Any:
    return index(x, [_hide(it) for it in items])


def run(x: tuple[int, ...], items: tuple[Any, ...]) -> Any:
    return tensor(x)[items]


@st.composite
def subscript(draw: st.DrawFn, sizes: list[Expr], symbolic: bool) -> tuple[Any, ...]:
    ints = st.integers(-6, 6).map(const)
    bounds = [st.none(), ints]
    if symbolic:
        # (sizes named U<n> are unknown to the rule as dims; as bounds the rule gets UNKNOWN_INT instead)
        known = [e for e in sizes if not (e.symbol_name or "").startswith("U")]
        bounds += [st.sampled_from(known), st.sampled_from(known).map(lambda e: -e), st.just(UNKNOWN_INT)]
    bound = st.one_of(bounds)
    step = st.one_of(st.none(), st.sampled_from([const(1), const(2), const(3), const(0), const(-1)]),
                     *([st.just(UNKNOWN_INT)] if symbolic else []))
    slices = st.builds(slice, bound, bound, step)
    plain = st.one_of(ints, *([st.just(UNKNOWN_INT)] if symbolic else []))
    item = st.one_of(slices, slices, plain, st.none(), st.just(Ellipsis), st.booleans())
    items = draw(st.lists(item, max_size=5))
    # several `...`s or bools mean odd things in torch: keep them rare
    if draw(st.integers(0, 9)):
        seen_ellipsis = seen_bool = False
        kept = []
        for it in items:
            if it is Ellipsis:
                if seen_ellipsis:
                    continue
                seen_ellipsis = True
            if isinstance(it, bool):
                if seen_bool:
                    continue
                seen_bool = True
            kept.append(it)
        items = kept
    return tuple(items)


def _odd(items: tuple[Any, ...]) -> bool:
    return sum(it is Ellipsis for it in items) > 1 or sum(isinstance(it, bool) for it in items) > 1


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_index(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    values["V0"] = data.draw(st.integers(-4, 4))
    x = data.draw(shapes_from(sizes))
    items = data.draw(subscript(sizes, symbolic))
    check(rule, run, x, items, values=values, may_give_up=_odd(items))


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_index_with_a_variadic(data: st.DataObject) -> None:
    symbolic = data.draw(st.booleans())
    sizes, values = draw_case(data, symbolic)
    values["V0"] = data.draw(st.integers(-4, 4))
    x = with_variadic(data, data.draw(shapes_from(sizes, max_rank=3)), values)
    items = data.draw(subscript(sizes, symbolic))
    check(rule, run, x, items, values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    t, T = parse("t"), parse("T")
    assert index(shape("B", "T", "V"), [slice(None), -1]) == shape("B", "V")
    assert index(shape("B", "T", "V"), [Ellipsis, slice(None, 5)]) == shape("B", "T", None)  # V may be < 5
    assert index(shape("B", "T", "V"), [None]) == shape(1, "B", "T", "V")
    assert index(shape("T", "D"), [slice(None, T)]) == shape("T", "D")  # x[:t] with t: Dim[T]
    assert index(shape("T+1", "D"), [slice(None, T)]) == shape("T", "D")
    assert index(shape(1024, "D"), [slice(None, t)]) == shape(None, "D")  # is t <= 1024? not evident
    assert index(shape("T", "D"), [slice(-1, None)]) == shape(1, "D")
    assert index(shape("T", "D"), [slice(1, None)]) == shape("T-1", "D")
    assert index(shape("T", "D"), [slice(None, None, 2)]) == shape("(T+1)//2", "D")
    assert index(shape(batch, "T", "D"), [Ellipsis, -1]) == shape(batch, "T")
    assert index(shape(batch, "T", "D"), [0]) is None
    assert index(shape("B", "D"), [UNKNOWN]) == shape("D")
    assert slice_length(parse("T"), slice(UNKNOWN, None)) is None
    with pytest.raises(ShapeRuleError, match="index 5 is out of bounds for dimension 1 with size 3"):
        index(shape("B", 3), [slice(None), 5])
    with pytest.raises(ShapeRuleError, match="too many"):
        index(shape("B", 3), [0, 0, 0])
    with pytest.raises(ShapeRuleError, match="step must be greater than zero"):
        index(shape("B", 3), [slice(None, None, -1)])
