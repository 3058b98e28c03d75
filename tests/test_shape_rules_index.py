"""Soundness of basic indexing against LibTorch (spec §7)."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr, const, parse, sym
from tyr.shape_rules import (
    UNKNOWN,
    ShapeRuleError,
    TensorIndex,
    Variadic,
    index,
    index_put,
    setitem,
    slice_length,
    unravel_index,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
UNKNOWN_INT = sym("V0")  # an int the rule is told nothing about (UNKNOWN); torch gets values["V0"]


def _hide(obj: Any) -> Any:
    if isinstance(obj, Expr) and obj.symbol_name == "V0":
        return UNKNOWN
    if isinstance(obj, slice):
        return slice(_hide(obj.start), _hide(obj.stop), _hide(obj.step))
    return obj


def rule(x: Any, items: Any, *, hide_dtypes: bool = False) -> Any:
    return index(x, [_rule_item(it, hide_dtypes) for it in items])


def _rule_item(it: Any, hide_dtype: bool) -> Any:
    """A test's `("tensor", dtype, shape)` item as the rule takes it (`TensorIndex`)."""
    if isinstance(it, tuple):
        return TensorIndex(it[2], None if hide_dtype else it[1])
    return _hide(it)


def run(x: tuple[int, ...], items: tuple[Any, ...]) -> Any:
    return tensor(x)[tuple(_torch_item(it) for it in items)]


def _torch_item(it: Any) -> Any:
    """Index tensors for torch: integers all 0 (in bounds wherever there is an element), masks all true."""
    if isinstance(it, tuple):
        _, dtype, dims = it
        return torch.zeros(dims, dtype=torch.int64) if dtype == "int" else torch.ones(dims, dtype=torch.bool)
    return it


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
    # several `...`s skip dims again in torch, past the end at times: keep them rare
    if draw(st.integers(0, 5)):
        seen_ellipsis = False
        kept = []
        for it in items:
            if it is Ellipsis:
                if seen_ellipsis:
                    continue
                seen_ellipsis = True
            kept.append(it)
        items = kept
    return tuple(items)


def _odd(items: tuple[Any, ...]) -> bool:
    """Several `...`s: the rule gives up when one sends a later item past the last dim."""
    return sum(it is Ellipsis for it in items) > 1


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


@st.composite
def with_tensors(draw: st.DrawFn, x: tuple[Any, ...], items: tuple[Any, ...], sizes: list[Expr]) -> tuple[Any, ...]:
    """`items` with one to three index tensors put in: integer ones of any shape, masks mostly shaped like
    a run of `x`'s dims."""
    out = list(items)
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.integers(0, 2)):
            dims = draw(st.one_of(shapes_from(sizes, max_rank=2), shapes_from(sizes, min_rank=1, max_rank=1)))
            item = ("tensor", "int", dims)
        else:
            start = draw(st.integers(0, len(x)))
            dims = x[start : start + draw(st.integers(0, 2))] if draw(st.integers(0, 3)) else draw(shapes_from(sizes, max_rank=2))
            item = ("tensor", "bool", tuple(dims))
        out.insert(draw(st.integers(0, len(out))), item)
    return tuple(out)


def _masks(items: tuple[Any, ...]) -> bool:
    return any(isinstance(it, tuple) and it[1] == "bool" for it in items)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_advanced_index(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    values["V0"] = data.draw(st.integers(-4, 4))
    x = data.draw(shapes_from(sizes))
    items = data.draw(with_tensors(x, data.draw(subscript(sizes, symbolic)), sizes))
    # how many elements of a mask are true is a value: its count, and whether it broadcasts, are unknown
    check(rule, run, x, items, values=values, may_give_up=_odd(items), told_less=_masks(items))


@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_advanced_index_with_a_variadic(data: st.DataObject) -> None:
    symbolic = data.draw(st.booleans())
    sizes, values = draw_case(data, symbolic)
    values["V0"] = data.draw(st.integers(-4, 4))
    x = data.draw(shapes_from(sizes, max_rank=3))
    items = data.draw(with_tensors(x, data.draw(subscript(sizes, symbolic)), sizes))
    x = with_variadic(data, x, values)
    check(rule, run, x, items, values=values, told_less=_masks(items))


def set_rule(x: Any, items: Any, value: Any) -> Any:
    return setitem(x, [_rule_item(it, False) for it in items], value)


def set_run(x: tuple[int, ...], items: tuple[Any, ...], value: tuple[int, ...]) -> Any:
    out = tensor(x)
    out[tuple(_torch_item(it) for it in items)] = tensor(value)
    return out


@st.composite
def values_for(draw: st.DrawFn, target: Any, sizes: list[Expr]) -> tuple[Expr, ...]:
    """A value's shape for `x[items] = value`: mostly `target` (`x[items]`'s shape) cut short at the front,
    with sizes made 1, ones put in front, or a size changed; now and then any shape."""
    if target is None or any(s is None or isinstance(s, Variadic) for s in target) or not draw(st.integers(0, 4)):
        return tuple(draw(shapes_from(sizes, max_rank=4)))
    out = list(target[draw(st.integers(0, len(target))):])
    out = [const(1) if draw(st.integers(0, 4)) == 0 else s for s in out]
    if out and not draw(st.integers(0, 3)):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.sampled_from(sizes))
    out = [const(1)] * draw(st.integers(0, 2)) + out
    if not draw(st.integers(0, 5)):
        out.insert(0, draw(st.sampled_from(sizes)))
    return tuple(out)


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_setitem(symbolic: bool, data: st.DataObject) -> None:
    """`x[items] = value`: the value, its leading ones dropped, broadcasts into `x[items]`."""
    sizes, values = draw_case(data, symbolic)
    values["V0"] = data.draw(st.integers(-4, 4))
    x = data.draw(shapes_from(sizes))
    items = data.draw(subscript(sizes, symbolic))
    if data.draw(st.booleans()):
        items = data.draw(with_tensors(x, items, sizes))
    try:
        target = rule(x, items)
    except ShapeRuleError:
        target = None
    value = data.draw(values_for(target, sizes))
    check(set_rule, set_run, x, items, value, values=values, may_give_up=_odd(items), told_less=_masks(items))


def put_rule(accumulate: bool) -> Any:
    def rule(x: Any, items: Any, value: Any) -> Any:
        return index_put(x, [_rule_item(it, False) for it in items], value, accumulate)

    return rule


def put_run(accumulate: bool) -> Any:
    def run(x: tuple[int, ...], items: tuple[Any, ...], value: tuple[int, ...]) -> Any:
        return tensor(x).index_put_(tuple(_torch_item(it) for it in items), tensor(value), accumulate=accumulate)

    return run


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_index_put(symbolic: bool, data: st.DataObject) -> None:
    """`x.index_put_(indices, values)`: index tensors only; the values broadcast into `x[indices]`, with no
    leading ones dropped (as `x[indices] = values` drops them), but for one mask and a value of one element."""
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    items = data.draw(with_tensors(x, (), sizes))
    try:
        target = rule(x, items)
    except ShapeRuleError:
        target = None
    value = data.draw(values_for(target, sizes))
    for accumulate in (False, True):
        check(put_rule(accumulate), put_run(accumulate), x, items, value, values=values, told_less=_masks(items))


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_index_tensors_of_unknown_dtype(data: st.DataObject) -> None:
    """Read both ways, an index tensor of unknown dtype gives what each reading allows, and fails only if both do."""
    sizes, values = draw_case(data, data.draw(st.booleans()))
    x = data.draw(shapes_from(sizes))
    items = data.draw(with_tensors(x, data.draw(subscript(sizes, False)), sizes))
    tensors = [i for i, it in enumerate(items) if isinstance(it, tuple)]
    readings = []
    for dtypes in itertools.product(("int", "bool"), repeat=len(tensors)):
        read = dict(zip(tensors, dtypes))
        try:
            readings.append(index(x, [TensorIndex(it[2], read[i]) if i in read else it for i, it in enumerate(items)]))
        except ShapeRuleError:
            pass
    try:
        got = rule(x, items, hide_dtypes=True)
    except ShapeRuleError:
        assert not readings
        return
    for reading in readings:
        if got is None or reading is None:
            continue
        assert len(got) == len(reading)
        assert all(g is None or g == r for g, r in zip(got, reading))


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
    # a stop at or before the start, counted from the same end: empty at every size
    assert index(shape("T+1", "D"), [0, slice(2, 1, 2)]) == shape(0)
    assert slice_length(parse("T"), slice(T, 1)) == const(0)
    assert slice_length(None, slice(-1, -3)) == const(0)
    assert slice_length(parse("T"), slice(2, -1)) is None  # counted from both ends: depends on T
    with pytest.raises(ShapeRuleError, match="index 5 is out of bounds for dimension 1 with size 3"):
        index(shape("B", 3), [slice(None), 5])
    with pytest.raises(ShapeRuleError, match="too many"):
        index(shape("B", 3), [0, 0, 0])
    with pytest.raises(ShapeRuleError, match="step must be greater than zero"):
        index(shape("B", 3), [slice(None, None, -1)])


def test_advanced_examples() -> None:
    batch = Variadic("Batch")
    idx, mask = TensorIndex(shape("K")), TensorIndex(shape("B", "T"), "bool")
    x = shape("B", "T", "D")
    assert index(x, [idx]) == shape("K", "T", "D")
    assert index(x, [slice(None), idx]) == shape("B", "K", "D")
    assert index(x, [idx, slice(None), idx]) == shape("K", "T")  # separated: to the front
    assert index(x, [0, slice(None), idx]) == shape("T", "K")  # torch selects first: adjacent
    assert index(x, [TensorIndex(shape("N", 1)), TensorIndex(shape("M"))]) == shape("N", "M", "D")
    assert index(x, [mask]) == shape(None, "D")
    assert index(shape(batch, "T", "D"), [Ellipsis, idx, slice(None)]) == shape(batch, "K", "D")
    assert index(x, [TensorIndex(shape("B", "T"), None)]) is None  # a mask, or integers: (B, T, T, D)
    assert index(x, [TensorIndex(shape("B", "T", "D", "E"), None)]) == shape("B", "T", "D", "E", "T", "D")
    assert index(x, [Ellipsis, 0, Ellipsis]) == shape("B", "T")  # torch accepts several `...`
    with pytest.raises(ShapeRuleError, match=r"the mask's shape \(T, D\) does not match dims 0 to 1"):
        index(x, [TensorIndex(shape("T", "D"), "bool")])
    with pytest.raises(ShapeRuleError, match="does not broadcast"):
        index(x, [TensorIndex(shape("K")), TensorIndex(shape("N"))])


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_unravel_index(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    indices = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 4)) == 0:
        indices = with_variadic(data, indices, values)
    dims = data.draw(st.lists(st.sampled_from([*sizes, const(-1)]), max_size=3))
    one = data.draw(st.booleans()) and len(dims) == 1  # an int for a 1-d shape
    check(lambda i, d: unravel_index(i, d),
          lambda i, d: torch.unravel_index(torch.zeros(i, dtype=torch.long), d[0] if one else tuple(d)),
          indices, dims, values=values)
