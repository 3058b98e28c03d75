"""Soundness of cat/stack/split/chunk/unbind against LibTorch (spec §7)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr, const, parse
from tyr.shape_rules import (
    directional_split,
    ShapeRuleError,
    Variadic,
    cat,
    cat_repeated,
    chunk,
    split,
    stack,
    stack_repeated,
    tensor_split,
    unbind,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


@st.composite
def similar_shapes(draw: st.DrawFn, sizes: list[Expr], count: int) -> list[tuple[Expr, ...]]:
    """`count` shapes that mostly agree, differing now and then in one dim (or in rank, or being `(0,)`)."""
    base = draw(shapes_from(sizes, max_rank=3))
    out = []
    for _ in range(count):
        s = list(base)
        if s and not draw(st.integers(0, 2)):
            s[draw(st.integers(0, len(s) - 1))] = draw(st.sampled_from(sizes))
        if not draw(st.integers(0, 6)):
            s = [const(0)] if draw(st.booleans()) else s[:-1]
        out.append(tuple(s))
    return out


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_cat(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    shapes = data.draw(similar_shapes(sizes, data.draw(st.integers(0, 3))))
    dim = dim_of(data, shapes[0] if shapes else ())
    check(lambda s, d: cat(s, d), lambda s, d: torch.cat([tensor(x) for x in s], dim=d), shapes, dim, values=values)


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_cat_with_variadics(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    shapes = data.draw(similar_shapes(sizes, data.draw(st.integers(1, 3))))
    at = data.draw(st.integers(0, min(len(s) for s in shapes)))
    shapes = [with_variadic(data, s, values, at=at) if data.draw(st.integers(0, 3)) else s for s in shapes]
    dim = dim_of(data, shapes[0])
    check(lambda s, d: cat(s, d), lambda s, d: torch.cat([tensor(x) for x in s], dim=d), shapes, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_stack(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    shapes = data.draw(similar_shapes(sizes, data.draw(st.integers(0, 3))))
    if shapes and data.draw(st.booleans()):
        at = data.draw(st.integers(0, min(len(s) for s in shapes)))
        shapes = [with_variadic(data, s, values, at=at) for s in shapes]
    dim = dim_of(data, (*shapes[0], 1) if shapes else ())
    check(lambda s, d: stack(s, d), lambda s, d: torch.stack([tensor(x) for x in s], dim=d), shapes, dim,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_repeated_operands(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    count = data.draw(st.integers(0, 3))
    dim = dim_of(data, x)
    check(lambda x, d: cat_repeated(x, count, d), lambda x, d: torch.cat([tensor(x)] * count, dim=d), x, dim,
          values=values)
    check(lambda x, d: stack_repeated(x, count, d), lambda x, d: torch.stack([tensor(x)] * count, dim=d), x, dim,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_sequence_repeated_unknown_times(symbolic: bool, data: st.DataObject) -> None:
    """`torch.cat(seq * n)` with `n` unknown: `seq` joined, then concatenated an unknown number of times
    along `dim` (the plugin's reading of `[x, y] * n`); stacking likewise."""
    sizes, values = draw_case(data, symbolic)
    shapes = data.draw(similar_shapes(sizes, data.draw(st.integers(1, 3))))
    count = data.draw(st.integers(0, 3))
    dim = dim_of(data, shapes[0])
    check(lambda s, d: cat_repeated(cat(s, d), None, d),
          lambda s, d: torch.cat([tensor(x) for x in s] * count, dim=d), shapes, dim, values=values, told_less=True)
    dim = dim_of(data, (*shapes[0], 1))
    check(lambda s, d: cat_repeated(stack(s, d), None, d),
          lambda s, d: torch.stack([tensor(x) for x in s] * count, dim=d), shapes, dim, values=values, told_less=True)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_split(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, min_rank=data.draw(st.sampled_from([0, 1, 1])), max_rank=3))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    dim = dim_of(data, x)
    whole = [x[dim]] if -len(x) <= dim < len(x) and not isinstance(x[dim], Variadic) else []
    arg = data.draw(st.one_of(
        st.sampled_from([*sizes, const(-1), const(0)]),
        st.lists(st.sampled_from([*sizes, const(-1)]), max_size=3),
        st.permutations([*whole, const(0), *sizes[:1]]).map(lambda p: p[: len(whole) + 1]),
    ))
    check(split, lambda x, a, d: torch.split(tensor(x), a, dim=d), x, arg, dim, values=values)
    other = torch.split_with_sizes if isinstance(arg, list) else torch.unsafe_split
    check(split, lambda x, a, d: other(tensor(x), a, dim=d), x, arg, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_chunk(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if symbolic and data.draw(st.booleans()):
        x = (*x, parse("3*B"))
    chunks, dim = data.draw(st.integers(-1, 4)), dim_of(data, x)
    check(chunk, lambda x, c, d: tensor(x).chunk(c, d), x, chunks, dim, values=values)
    check(chunk, lambda x, c, d: tensor(x).unsafe_chunk(c, d), x, chunks, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_tensor_split(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if symbolic and data.draw(st.booleans()):
        x = (*x, data.draw(st.sampled_from([parse("3*B"), parse("B*T"), parse("2*B + 1")])))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    bound = st.one_of(st.integers(-6, 6).map(const), st.sampled_from(sizes))
    arg = data.draw(st.one_of(st.integers(-1, 4).map(const), st.lists(bound, max_size=4)))
    check(tensor_split, lambda x, a, d: torch.tensor_split(tensor(x), a, d), x, arg, dim_of(data, x), values=values)


SPLITS = {"vsplit": torch.vsplit, "hsplit": torch.hsplit, "dsplit": torch.dsplit}


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_directional_split(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=4))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    op = data.draw(st.sampled_from(sorted(SPLITS)))
    bound = st.one_of(st.integers(-6, 6).map(const), st.sampled_from(sizes))
    arg = data.draw(st.one_of(st.integers(-1, 4).map(const), st.lists(bound, max_size=4)))
    check(directional_split, lambda x, a, o: SPLITS[o](tensor(x), a), x, arg, op, values=values)


@SYMBOLIC
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_unbind(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    check(unbind, lambda x, d: tensor(x).unbind(d), x, dim_of(data, x), values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    # q, k, v = qkv.split(C, dim=2)
    qkv = split(shape("B", "T", "3*C"), parse("C"), dim=2)
    assert qkv == (shape("B", "T", "C"),) * 3
    assert chunk(shape("B", "T", "3*C"), 3, dim=-1) == (shape("B", "T", "C"),) * 3
    assert split(shape("B", "T"), 2, dim=1) is None  # how many pieces depends on T
    assert cat([shape(batch, "T", "D"), shape(batch, "S", "D")], dim=-2) == shape(batch, "T+S", "D")
    assert stack_repeated(shape("B", "D"), None, dim=1) == shape("B", None, "D")  # a list of unknown length
    with pytest.raises(ShapeRuleError, match=r"dimension 1 is D in the tensor at position 0 but E at position 1"):
        cat([shape("B", "D"), shape("B", "E")], dim=0)
    # ranks that differ for every length of the Variadic
    with pytest.raises(ShapeRuleError, match="same number of dimensions"):
        cat([shape(batch, "D"), shape(batch, "D", "D")], dim=-1)
    with pytest.raises(ShapeRuleError, match="same number of dimensions"):
        cat([shape("T", "D"), shape(batch, 3, 4, 5)], dim=0)
    with pytest.raises(ShapeRuleError, match="same shape"):
        stack([shape(batch, "D"), shape(batch, "D", "D")], dim=0)
    assert cat([shape("T", "D", "E"), shape(batch, 4, "E")], dim=1) is None  # Batch may be one dim
    assert cat([shape(batch, "D"), shape(Variadic("Other"), "D", "D")], dim=-1) is None
    with pytest.raises(ShapeRuleError, match="add up to 2\\*C"):
        split(shape("3*C"), [parse("C"), parse("C")])
