"""Soundness of gather, take_along_dim, index_select, scatter and index_add/index_copy against LibTorch (spec §7)."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr
from tyr.shape_rules import (
    ShapeRuleError,
    Variadic,
    gather,
    index_add,
    index_copy,
    index_fill,
    index_select,
    scatter,
    take_along_dim,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


def long(s: tuple[int, ...]) -> torch.Tensor:
    return tensor(s, torch.int64)  # zeros: in bounds wherever the indexed dim has elements


@st.composite
def index_like(draw: st.DrawFn, x: tuple[Expr, ...], sizes: list[Expr]) -> tuple[Expr, ...]:
    """An index shape for `x`: mostly its rank with sizes taken from it or the palette, sometimes anything."""
    if not draw(st.integers(0, 4)):
        return draw(shapes_from(sizes, max_rank=4))
    return tuple(draw(st.sampled_from([d, d, *sizes])) for d in x)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_gather(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    index = data.draw(index_like(x, sizes))
    dim = dim_of(data, x)
    check(gather, lambda x, d, i: torch.gather(tensor(x), d, long(i)), x, dim, index, values=values)
    check(lambda x, d, i: gather(None, d, i), lambda x, d, i: torch.gather(tensor(x), d, long(i)), x, dim, index,
          values=values, told_less=True)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_take_along_dim(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    index = data.draw(index_like(x, sizes))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x))))
    check(take_along_dim, lambda x, i, d: torch.take_along_dim(tensor(x), long(i), d), x, index, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_index_select(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    index = data.draw(shapes_from(sizes, max_rank=2))
    dim = dim_of(data, x)
    check(index_select, lambda x, d, i: tensor(x).index_select(d, long(i)), x, dim, index, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_scatter(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    index = data.draw(index_like(x, sizes))
    src = data.draw(st.one_of(st.just(index), st.just(x), index_like(x, sizes)))
    dim = dim_of(data, x)
    check(scatter, lambda x, d, i, s: tensor(x).scatter(d, long(i), tensor(s)), x, dim, index, src, values=values)
    check(scatter, lambda x, d, i, s: torch.scatter_add(tensor(x), d, long(i), tensor(s)), x, dim, index, src,
          values=values)
    check(lambda x, d, i: scatter(x, d, i, src_is_tensor=False), lambda x, d, i: tensor(x).scatter(d, long(i), 1.0),
          x, dim, index, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_index_add_and_copy(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    dim = dim_of(data, x)
    index = data.draw(shapes_from(sizes, max_rank=2))
    source = data.draw(index_like(x, sizes))
    if source and data.draw(st.booleans()) and -len(source) <= dim < len(source) and len(index) == 1:
        source = (*source[: dim % len(source)], index[0], *source[dim % len(source) + 1 :])
    check(index_add, lambda x, d, i, s: tensor(x).index_add(d, long(i), tensor(s)), x, dim, index, source,
          values=values)
    check(index_copy, lambda x, d, i, s: tensor(x).index_copy(d, long(i), tensor(s)), x, dim, index, source, values=values)
    check(lambda x, d, i, s: index_add(x, d, i, s, op="index_reduce"),
          lambda x, d, i, s: tensor(x).index_reduce(d, long(i), tensor(s), "prod"), x, dim, index, source, values=values,
          warns=("index_reduce\\(\\) is in beta",))
    check(index_fill, lambda x, d, i: tensor(x).index_fill(d, long(i), 1.0), x, dim, index, values=values)
    value = data.draw(shapes_from(sizes, max_rank=2))
    check(index_fill, lambda x, d, i, v: tensor(x).index_fill(d, long(i), tensor(v)), x, dim, index, value,
          values=values)


@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_with_a_variadic(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    x = data.draw(shapes_from(sizes, max_rank=3))
    index = data.draw(index_like(x, sizes))
    dim = dim_of(data, x)
    x = with_variadic(data, x, values)
    check(gather, lambda x, d, i: torch.gather(tensor(x), d, long(i)), x, dim, index, values=values)
    check(scatter, lambda x, d, i: tensor(x).scatter(d, long(i), tensor(i)), x, dim, index, values=values)
    check(index_select, lambda x, d, i: tensor(x).index_select(d, long(i)), x, dim, index[:1], values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    assert gather(shape("B", "T", "V"), -1, shape("B", "T", 1)) == shape("B", "T", 1)
    assert index_select(shape("V", "D"), 0, shape("N")) == shape("N", "D")
    assert index_select(shape(batch, "V", "D"), -2, shape("N")) == shape(batch, "N", "D")
    assert take_along_dim(shape("B", "T"), shape("B", "K"), 1) == shape("B", "K")
    assert scatter(shape("B", "V"), 1, shape("B", "K"), shape("B", "K")) == shape("B", "V")
    with pytest.raises(ShapeRuleError, match="must have as many dims as the input"):
        gather(shape("B", "T", "V"), -1, shape("B", "T"))
    with pytest.raises(ShapeRuleError, match=r"dimension 0 of the index \(B \+ 1\) is larger than dimension 0 of the input \(B\)"):
        gather(shape("B", "V"), 1, shape("B+1", 1))
    assert gather(shape("B", "V"), 1, shape("T", 1)) == shape("T", 1)  # T may be no larger than B
    with pytest.raises(ShapeRuleError, match="must be a vector"):
        index_select(shape("V", "D"), 0, shape("B", "T"))
