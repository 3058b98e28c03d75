"""Soundness of the broadcasting rules against LibTorch (spec §7)."""

from __future__ import annotations

import operator

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import const, parse
from tyr.shape_rules import (
    ShapeRuleError,
    Variadic,
    broadcast_shapes,
    broadcasts_to,
    expand,
    fill,
    masked_fill,
    sum_to_size,
    where,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


def _gcd(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.gcd(x.long(), y.long())


BINARY = [operator.add, operator.mul, operator.lt, operator.eq, torch.maximum, torch.logaddexp, torch.logaddexp2,
          torch.igamma, torch.isclose, _gcd]


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_binary_ops(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    op = data.draw(st.sampled_from(BINARY))
    check(broadcast_shapes, lambda x, y: op(tensor(x), tensor(y)), a, b, values=values)


@settings(max_examples=examples(150), deadline=None)
@given(data=st.data(), shared=st.booleans())
def test_binary_ops_with_variadics(data: st.DataObject, shared: bool) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    a, b = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    a = with_variadic(data, a, values)
    if shared or data.draw(st.booleans()):
        b = with_variadic(data, b, values, name="Batch" if shared else "Other")
    check(broadcast_shapes, lambda x, y: tensor(x) + tensor(y), a, b, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_where(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    c, a, b = (data.draw(shapes_from(sizes, max_rank=3)) for _ in range(3))
    check(where, lambda c, a, b: torch.where(tensor(c, torch.bool), tensor(a), tensor(b)), c, a, b, values=values)


TERNARY = {
    "clamp": lambda x, a, b: torch.clamp(x, a, b),
    "lerp": torch.lerp,
    "addcmul": torch.addcmul,
    "addcdiv": torch.addcdiv,
    "polar": lambda x, a, b: torch.polar(x, a + b),
    "complex": lambda x, a, b: torch.complex(x, a + b),
}


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_ops_of_several_tensors_broadcast(symbolic: bool, data: st.DataObject) -> None:
    """clamp with tensor bounds, lerp, addcmul, addcdiv, polar, complex: their operands broadcast together."""
    sizes, values = draw_case(data, symbolic)
    x, a, b = (data.draw(shapes_from(sizes, max_rank=3)) for _ in range(3))
    name = data.draw(st.sampled_from(sorted(TERNARY)))
    op = TERNARY[name]
    check(lambda x, a, b: broadcast_shapes(x, a, b), lambda x, a, b: op(tensor(x), tensor(a), tensor(b)), x, a, b,
          values=values)
    if name in ("polar", "complex"):
        return
    in_place = getattr(torch.Tensor, name + "_")
    check(lambda x, a: broadcasts_to(a, x), lambda x, a: in_place(tensor(x), tensor(a), tensor(a)), x, a,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_masked_fill(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, mask = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    check(masked_fill, lambda x, m: tensor(x).masked_fill(tensor(m, torch.bool), 0.0), x, mask, values=values)
    # an all-false mask: `source`'s count of values is never short (that check depends on the mask's values)
    check(lambda x, m: masked_fill(x, m, op="masked_scatter"),
          lambda x, m: tensor(x).masked_scatter(tensor(m, torch.bool), torch.zeros(0)), x, mask, values=values)
    check(lambda x, m: broadcasts_to(m, x, op="masked_scatter_"),
          lambda x, m: tensor(x).masked_scatter_(tensor(m, torch.bool), torch.zeros(0)), x, mask, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_fill_values(symbolic: bool, data: st.DataObject) -> None:
    """`fill_`, `masked_fill`: a tensor value must be 0-d, even one of one element."""
    sizes, values = draw_case(data, symbolic)
    x, value = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes, max_rank=2))
    check(fill, lambda x, v: tensor(x).fill_(tensor(v)), x, value, values=values)
    check(lambda x, v: fill(x, v, op="fill"), lambda x, v: torch.fill(tensor(x), tensor(v)), x, value, values=values)
    check(lambda x, v: masked_fill(x, x, v), lambda x, v: tensor(x).masked_fill(tensor(x, torch.bool), tensor(v)),
          x, value, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_in_place_ops_broadcast_to_the_target(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, y = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    check(broadcasts_to, lambda y, x: tensor(x).add_(tensor(y)), y, x, values=values)
    check(broadcasts_to, lambda y, x: tensor(x).copy_(tensor(y)), y, x, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_expand(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    wanted = data.draw(st.lists(st.sampled_from([*sizes, const(-1), const(-1), const(-2)]), max_size=5))
    check(lambda x, w: expand(x, w), lambda x, w: tensor(x).expand(tuple(w)), x, wanted, values=values)
    check(lambda x, w: expand(x, w, op="broadcast_to"), lambda x, w: torch.broadcast_to(tensor(x), tuple(w)), x,
          wanted, values=values)
    check(lambda x, w: expand(x, w, op="expand_copy"), lambda x, w: torch.expand_copy(tensor(x), tuple(w)), x,
          wanted, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_sum_to_size(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.booleans()):  # mostly a size `x` sums to: some of its trailing dims, some of them 1
        kept = x[data.draw(st.integers(0, len(x))) :]
        wanted = [s if data.draw(st.booleans()) else const(1) for s in kept]
    else:
        wanted = data.draw(st.lists(st.sampled_from([*sizes, const(-1), const(0)]), max_size=4))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    check(sum_to_size, lambda x, w: tensor(x).sum_to_size(tuple(w)), x, wanted, values=values)


def test_messages_name_both_dims() -> None:
    with pytest.raises(ShapeRuleError, match=r"dimension 1 of the left operand \(D\) does not broadcast with "
                                             r"dimension 1 of the right operand \(E\)"):
        broadcast_shapes(shape("B", "D"), shape("B", "E"))
    with pytest.raises(ShapeRuleError, match=r"dimension -1 of the left operand \(4\)"):
        broadcast_shapes(shape(Variadic("Batch"), 4), shape(3))
    with pytest.raises(ShapeRuleError, match=r"the condition \(B\)"):
        where(shape("B"), shape(1), shape(4))


def test_variadic_and_unknown_cases() -> None:
    batch = Variadic("Batch")
    assert broadcast_shapes(shape(batch, "D"), shape("D")) == shape(batch, "D")
    assert broadcast_shapes(shape(batch, 1, "D"), shape(batch, "T", 1)) == shape(batch, "T", "D")
    assert broadcast_shapes(shape("N", batch, "D"), shape(1, batch, "D")) == shape("N", batch, "D")
    assert broadcast_shapes(shape(batch, "D"), shape("T", "D")) is None  # T lines up with Batch or not
    assert broadcast_shapes(shape(batch, "D"), shape(Variadic("Other"), "D")) is None
    assert broadcast_shapes(shape(None, 3, None), shape("B", None, 1)) == shape(None, 3, None)  # B may be 1
    assert broadcast_shapes(shape(None), shape(1)) == shape(None)
    assert broadcast_shapes(None, shape(1)) is None
    assert broadcast_shapes(shape(None), shape("B+1")) == shape("B+1")  # B + 1 is never 1
    assert expand(shape("B", 1), [-1, parse("T")]) == shape("B", "T")
    assert expand(shape(None, "B"), [3, 2, None]) == shape(3, 2, None)
