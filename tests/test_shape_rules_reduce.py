"""Soundness of the reduction rules against LibTorch (spec §7)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import const, parse
from tyr.shape_rules import (
    cov,
    histc,
    isin,
    ShapeRuleError,
    Variadic,
    aminmax,
    along_dim,
    argmax,
    bucketize,
    kthvalue,
    max_along,
    multinomial,
    reduce,
    renorm,
    searchsorted,
    topk,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
DOF_WARNING = ("degrees of freedom is <= 0",)


def _method(name: str, none_dim: Any = None) -> Callable[[tuple[int, ...], Any, bool], torch.Tensor]:
    def run(x: tuple[int, ...], dim: Any, keepdim: bool) -> torch.Tensor:
        t = tensor(x, torch.bool if name in ("any", "all") else torch.float32)
        out: torch.Tensor = getattr(t, name)(dim=none_dim if dim is None else dim, keepdim=keepdim)
        return out

    return run


# name: (rule keywords, torch call, dim may be a tuple, dim may be None)
REDUCTIONS: dict[str, tuple[dict[str, Any], Callable[..., torch.Tensor], bool, bool]] = {
    "sum": ({}, _method("sum"), True, True),
    "mean": ({}, _method("mean"), True, True),
    "nansum": ({}, _method("nansum"), True, True),
    "std": ({}, _method("std"), True, True),
    "var": ({}, _method("var"), True, True),
    "norm": ({}, _method("norm"), True, True),
    "logsumexp": ({}, _method("logsumexp"), True, False),
    "prod": ({}, _method("prod"), False, False),
    "any": ({"empty_dim_reduces_all": False}, _method("any"), True, True),
    "amax": ({"nonempty": True}, _method("amax", ()), True, True),
    "amin": ({"nonempty": True}, _method("amin", ()), True, True),
}


@SYMBOLIC
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
@settings(max_examples=examples(25), deadline=None)
@given(data=st.data())
def test_reductions(symbolic: bool, name: str, data: st.DataObject) -> None:
    keywords, run, tuples, nones = REDUCTIONS[name]
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.integers(0, 3)) == 0:
        x = with_variadic(data, x, values)
    choices = [st.just(dim_of(data, x))]
    if tuples:
        choices.append(st.lists(st.integers(-len(x) - 1, len(x)), max_size=3).map(tuple))
    if nones:
        choices.append(st.none())
    dim = data.draw(st.one_of(choices))
    keepdim = data.draw(st.booleans())
    check(lambda x, d, k: reduce(x, d, k, op=name, **keywords), run, x, dim, keepdim, values=values,
          warns=DOF_WARNING)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_full_reductions(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    name = data.draw(st.sampled_from(["sum", "mean", "max", "min", "median", "std"]))
    nonempty = name in ("max", "min")
    check(lambda x: reduce(x, op=name, nonempty=nonempty), lambda x: getattr(tensor(x), name)(), x,
          values=values, warns=DOF_WARNING)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_argmax(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x))))
    keepdim = data.draw(st.booleans())
    check(argmax, lambda x, d, k: tensor(x).argmax(dim=d, keepdim=k), x, dim, keepdim, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_max_along_a_dim(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    name = data.draw(st.sampled_from(["max", "min", "median", "nanmedian", "mode"]))
    check(lambda x, d, k: max_along(x, d, k, op=name), lambda x, d, k: tuple(getattr(tensor(x), name)(d, k)),
          x, dim_of(data, x), data.draw(st.booleans()), values=values)
    if name in ("median", "nanmedian"):  # of all elements: a 0-d tensor, even of an empty one
        check(lambda x: reduce(x, None, False, op=name), lambda x: getattr(tensor(x), name)(), x, values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_along_dim(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    name = data.draw(st.sampled_from(["softmax", "log_softmax", "cumsum", "logcumsumexp", "cummax", "cummin"]))

    def torch_op(x: object, d: int) -> torch.Tensor:
        out = getattr(tensor(x), name)(d)
        return out.values if name in ("cummax", "cummin") else out  # (values, indices), of one shape

    check(lambda x, d: along_dim(x, d, op=name), torch_op, x, dim_of(data, x), values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_renorm(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    check(renorm, lambda x, d: tensor(x).renorm(2, d, 1.0), x, dim_of(data, x), values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_topk(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    k = data.draw(st.sampled_from([*sizes, *(s + 1 for s in sizes), const(-1), const(0)]))
    check(topk, lambda x, k, d: tuple(tensor(x).topk(k, d)), x, k, dim_of(data, x), values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_kthvalue_and_aminmax(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from([*sizes, const(0)]))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    k = data.draw(st.sampled_from([*sizes, *(s + 1 for s in sizes), const(0), const(1)]))
    dim, keepdim = dim_of(data, x), data.draw(st.booleans())
    check(kthvalue, lambda x, k, d, kd: tuple(torch.kthvalue(tensor(x), k, d, kd)), x, k, dim, keepdim, values=values)
    dim = data.draw(st.one_of(st.none(), st.just(dim)))
    check(aminmax, lambda x, d, kd: tuple(torch.aminmax(tensor(x), dim=d, keepdim=kd)), x, dim, keepdim, values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    assert reduce(shape(batch, "D"), -1) == shape(batch)
    assert reduce(shape(batch, "D"), -1, keepdim=True) == shape(batch, 1)
    assert reduce(shape(batch, "D"), 0) is None
    assert reduce(shape(batch, "D")) == ()
    assert reduce(shape("B", "T", "D"), (0, 1)) == shape("D")
    assert argmax(shape("B", "V"), -1) == shape("B")
    assert max_along(shape("B", "V"), 1, keepdim=True) == (shape("B", 1), shape("B", 1))
    with pytest.raises(ShapeRuleError, match=r"the dims \(0, -2\) name dimension 0 more than once"):
        reduce(shape("B", "D"), (0, -2))
    with pytest.raises(ShapeRuleError, match="out of range for a 2-d tensor"):
        reduce(shape("B", "D"), 2)
    with pytest.raises(ShapeRuleError, match="size 0"):
        argmax(shape("B", 0), 1)
    assert topk(shape("B", "V"), parse("K")) == (shape("B", "K"), shape("B", "K"))
    # torch returns an empty tensor's cummax as it is, whatever the dim (found by test_along_dim)
    assert along_dim(shape(0), 1, op="cummax") == shape(0)
    with pytest.raises(ShapeRuleError, match="out of range for a 1-d tensor"):
        along_dim(shape("B"), 1, op="cummax")


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_multinomial(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    n = data.draw(st.sampled_from([*sizes, const(0)]))
    replacement = data.draw(st.booleans())
    check(multinomial, lambda x, n, r: torch.multinomial(torch.ones(x), n, r), x, n, replacement, values=values)


def _searchsorted(boundaries: tuple[int, ...], values: tuple[int, ...] | float, sorter: tuple[int, ...] | None) -> Any:
    return torch.searchsorted(tensor(boundaries), values if isinstance(values, float) else tensor(values),
                              sorter=None if sorter is None else torch.zeros(sorter, dtype=torch.long))


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_searchsorted_and_bucketize(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    boundaries = data.draw(shapes_from(sizes, max_rank=3))
    rows = (*boundaries[:-1], data.draw(st.sampled_from(sizes))) if boundaries else ()
    x = data.draw(st.one_of(st.just(rows), shapes_from(sizes, max_rank=3)))
    sorter = data.draw(st.one_of(st.none(), st.just(boundaries), shapes_from(sizes, max_rank=3)))
    variadic = data.draw(st.integers(0, 5))
    if variadic == 0:
        x = with_variadic(data, x, values)
    elif variadic == 1:
        boundaries = with_variadic(data, boundaries, values)
    elif variadic == 2:  # the same dims before both last dims
        boundaries, x = with_variadic(data, boundaries, values, at=0), with_variadic(data, x, values, at=0)
    check(searchsorted, _searchsorted, boundaries, x, sorter, values=values)
    check(lambda b, _, __: searchsorted(b, ()), _searchsorted, boundaries, 2.5, None, values=values)  # a Python number
    check(bucketize, lambda v, b: torch.bucketize(tensor(v), tensor(b)), x, boundaries, values=values)
    check(lambda b: bucketize((), b), lambda b: torch.bucketize(2.5, tensor(b)), boundaries, values=values)


def test_searchsorted_examples() -> None:
    batch = Variadic("Batch")
    assert searchsorted(shape("N"), shape("B", "T")) == shape("B", "T")
    assert searchsorted(shape("B", "N"), shape("B", "T")) == shape("B", "T")
    assert searchsorted(shape(batch, "N"), ()) == ()
    assert searchsorted(None, shape("T")) == shape("T")
    assert bucketize(shape("B", "T"), shape("N")) == shape("B", "T")
    with pytest.raises(ShapeRuleError, match=r"dimension 0 of sorted_sequence \(B\) does not match dimension 0 of values \(C\)"):
        searchsorted(shape("B", "N"), shape("C", "T"))
    with pytest.raises(ShapeRuleError, match="values \\(T,\\) must have the 2 dims of sorted_sequence"):
        searchsorted(shape("B", "N"), shape("T"))
    with pytest.raises(ShapeRuleError, match="a 0-d value needs a 1-d sorted_sequence"):
        searchsorted(shape("B", "N"), ())
    with pytest.raises(ShapeRuleError, match="at least 1 dim"):
        searchsorted((), shape("T"))
    with pytest.raises(ShapeRuleError, match="the sorter"):
        searchsorted(shape("N"), shape("T"), shape("M"))
    with pytest.raises(ShapeRuleError, match="the boundaries must be 1-d"):
        bucketize(shape("T"), shape(batch, "B", "N"))


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_histc_and_isin(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, tests = data.draw(shapes_from(sizes, max_rank=3)), data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    bins = data.draw(st.one_of(st.sampled_from(sizes), st.integers(-1, 3).map(const)))
    check(histc, lambda x, b: torch.histc(tensor(x), bins=b), x, bins, values=values)
    check(isin, lambda x, t: torch.isin(tensor(x), tensor(t)), x, tests, values=values)
    check(lambda _, t: isin((), t), lambda x, t: torch.isin(2.0, tensor(t)), x, tests, values=values)


COV_WARNINGS = (r"cov\(\): degrees of freedom is <= 0",)


@SYMBOLIC
@pytest.mark.parametrize("op", ["cov", "corrcoef"])
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_cov_and_corrcoef(symbolic: bool, op: str, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    observations = x[-1:] if x else (const(1),)
    weights = st.one_of(st.none(), st.just(observations), shapes_from(sizes, max_rank=2))
    fweights, aweights = (data.draw(weights), data.draw(weights)) if op == "cov" else (None, None)
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)

    def run(x: tuple[int, ...], f: tuple[int, ...] | None, a: tuple[int, ...] | None) -> torch.Tensor:
        if op == "corrcoef":
            return torch.corrcoef(tensor(x))
        return torch.cov(tensor(x), fweights=None if f is None else torch.ones(f, dtype=torch.long),
                         aweights=None if a is None else torch.ones(a))

    check(lambda x, f, a: cov(x, f, a, op=op), run, x, fweights, aweights, values=values, warns=COV_WARNINGS)
