"""Soundness against LibTorch (spec §7) of the `torch.linalg` rules: `solve`, `inv` and the other ops on square
matrices, `det` / `slogdet`, `eigh` / `eigvalsh`, `qr`, `svd` / `svdvals`, `pinv`, the norms and `vecdot`."""

from __future__ import annotations

import math
import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, with_variadic

from tyr._symbolic import Expr, const
from tyr.shape_rules import UNKNOWN, ShapeRuleError, Variadic
from tyr.shape_rules import linalg as la

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])


def matrices(dims: tuple[int, ...]) -> torch.Tensor:
    """A tensor of shape `dims` whose square matrices are the identity (invertible, positive definite), so that
    torch's verdict depends on the shape alone."""
    if len(dims) >= 2 and dims[-1] == dims[-2]:
        return torch.eye(dims[-1]).expand(dims).clone()
    return torch.randn(dims)


def _matrix_case(data: st.DataObject, symbolic: bool) -> tuple[list, dict, tuple]:  # type: ignore[type-arg]
    """Sizes, values, and a shape that is mostly a (batch of) square matrices."""
    sizes, values = draw_case(data, symbolic)
    a = data.draw(shapes_from(sizes, max_rank=4))
    if len(a) >= 2 and data.draw(st.integers(0, 3)):
        a = (*a[:-1], a[-2])
    if data.draw(st.integers(0, 4)) == 0:
        a = with_variadic(data, a, values, at=data.draw(st.integers(0, max(len(a) - 2, 0))))
    return sizes, values, a


@SYMBOLIC
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_solve(symbolic: bool, data: st.DataObject) -> None:
    sizes, values, a = _matrix_case(data, symbolic)
    fixed = [s for s in a if not isinstance(s, Variadic)]
    kind = data.draw(st.integers(0, 3))
    if kind == 0 and a:  # a batch of vectors: A's shape without its last dim
        b = a[:-1]
    elif kind == 1 and len(fixed) >= 2:  # a matrix of right-hand sides, batch dims broadcast or dropped
        k = data.draw(st.sampled_from(sizes))
        batch = tuple(data.draw(st.sampled_from([s, const(1)])) if not isinstance(s, Variadic) else s for s in a[:-2])
        b = (*batch[data.draw(st.integers(0, len(batch))):], a[-2], k)
    else:
        b = data.draw(shapes_from(sizes, max_rank=4))
    left = data.draw(st.booleans())
    if not left and len(b) >= 2 and data.draw(st.booleans()):
        b = (*b[:-2], b[-1], b[-2])
    check(la.solve, lambda a, b, left: torch.linalg.solve(matrices(a), torch.randn(b), left=left), a, b, left,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_lstsq(symbolic: bool, data: st.DataObject) -> None:
    """The solution's shape, for a matrix or a batch of vectors on the right, mostly of A's rows."""
    sizes, values = draw_case(data, symbolic)
    a = data.draw(shapes_from(sizes, max_rank=4))
    if data.draw(st.integers(0, 2)) and len(a) >= 2:
        batch = tuple(data.draw(st.sampled_from([s, const(1)])) for s in a[:-2])
        vector = data.draw(st.booleans())
        b = (*batch[data.draw(st.integers(0, len(batch))):], a[-2], *(() if vector else (data.draw(st.sampled_from(sizes)),)))
    else:
        b = data.draw(shapes_from(sizes, max_rank=4))
    if data.draw(st.integers(0, 4)) == 0:
        a = with_variadic(data, a, values, at=data.draw(st.integers(0, max(len(a) - 2, 0))))
    # a B of one dim fewer that is no batch of vectors is broadcast in ways the rule leaves unknown
    odd = len(b) == len(a) - 1 >= 2 and not any(isinstance(s, Variadic) for s in a) and (
        [s.evaluate(values or {}) for s in b] != [s.evaluate(values or {}) for s in a[:-1]])
    check(la.lstsq, lambda a, b: torch.linalg.lstsq(torch.randn(a), torch.randn(b)).solution, a, b, values=values,
          may_give_up=odd)


def _matrix_chain(data: st.DataObject, sizes: list[Expr], count: int) -> list[tuple[Expr, ...]]:
    """`count` matrices that mostly chain (each one's columns the next one's rows); now and then any shape."""
    chain = [data.draw(st.sampled_from(sizes)) for _ in range(count + 1)]
    return [(chain[k], chain[k + 1]) if data.draw(st.integers(0, 5)) else data.draw(shapes_from(sizes, max_rank=3))
            for k in range(count)]


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_multi_dot(symbolic: bool, data: st.DataObject) -> None:
    """Chains that mostly fit (each inner size the next one's rows), a 1-d first or last now and then."""
    sizes, values = draw_case(data, symbolic)
    shapes = _matrix_chain(data, sizes, data.draw(st.integers(1, 4)))
    if data.draw(st.booleans()) and len(shapes[0]) == 2:
        shapes[0] = shapes[0][1:]
    if data.draw(st.booleans()) and len(shapes[-1]) == 2:
        shapes[-1] = shapes[-1][:1]
    check(lambda *s: la.multi_dot(s), lambda *s: torch.linalg.multi_dot([torch.randn(x) for x in s]), *shapes,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_chain_matmul(symbolic: bool, data: st.DataObject) -> None:
    """One matrix or a chain that mostly fits; now and then a tensor of another rank."""
    sizes, values = draw_case(data, symbolic)
    shapes = _matrix_chain(data, sizes, data.draw(st.integers(1, 3)))
    with warnings.catch_warnings():  # chain_matmul is deprecated
        warnings.simplefilter("ignore")
        check(lambda *s: la.chain_matmul(s), lambda *s: torch.chain_matmul(*(torch.randn(x) for x in s)), *shapes,
              values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_square_matrices(symbolic: bool, data: st.DataObject) -> None:
    _, values, a = _matrix_case(data, symbolic)
    for op in (torch.linalg.inv, torch.linalg.cholesky, torch.linalg.matrix_exp, lambda x: torch.linalg.matrix_power(x, 2)):
        check(la.square, lambda a, op=op: op(matrices(a)), a, values=values)
    for op in (torch.inverse, torch.matrix_exp, lambda x: x.matrix_power(3)):  # the older names, same rules
        check(la.square, lambda a, op=op: op(matrices(a)), a, values=values)
    for op in (torch.linalg.det, torch.det, torch.logdet):
        check(la.det, lambda a, op=op: op(matrices(a)), a, values=values)
    for op in (torch.linalg.slogdet, torch.slogdet):
        check(la.slogdet, lambda a, op=op: tuple(op(matrices(a))), a, values=values)
    check(la.eigvals, lambda a: torch.linalg.eigvalsh(matrices(a)), a, values=values)
    check(la.eigvals, lambda a: torch.linalg.eigvals(matrices(a)), a, values=values)
    uplo = data.draw(st.sampled_from(["L", "U", "X"]))
    check(la.eigh, lambda a, u: tuple(torch.linalg.eigh(matrices(a), UPLO=u)), a, uplo, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_decompositions(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    sizes = [*sizes, const(0)]
    a = data.draw(shapes_from(sizes, max_rank=4))
    if symbolic and len(a) >= 2 and data.draw(st.booleans()):
        a = (*a[:-1], a[-2] + 1)  # a wide matrix: min(m, n) is m
    if data.draw(st.integers(0, 4)) == 0:
        a = with_variadic(data, a, values, at=data.draw(st.integers(0, max(len(a) - 2, 0))))
    mode = data.draw(st.sampled_from(["reduced", "complete", "r", "x"]))
    check(la.qr, lambda a, m: tuple(torch.linalg.qr(torch.randn(a), mode=m)), a, mode, values=values)
    full = data.draw(st.booleans())
    check(la.svd, lambda a, f: tuple(torch.linalg.svd(torch.randn(a), full_matrices=f)), a, full, values=values)
    check(la.svdvals, lambda a: torch.linalg.svdvals(torch.randn(a)), a, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_pinv(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a = data.draw(shapes_from(sizes + [const(0)], max_rank=4))
    hermitian = data.draw(st.booleans())
    if hermitian and len(a) >= 2 and data.draw(st.booleans()):
        a = (*a[:-1], a[-2])
    tolerances = data.draw(st.lists(st.one_of(st.just(()), shapes_from(sizes, max_rank=3)), max_size=2))

    def torch_pinv(a, h, tols):  # type: ignore[no-untyped-def]
        given = dict(zip(("atol", "rtol"), (torch.rand(t) for t in tols)))
        return torch.linalg.pinv(matrices(a), hermitian=h, **given)

    check(la.pinv, torch_pinv, a, hermitian, tolerances, values=values)
    check(la.pinv, lambda a: torch.pinverse(torch.randn(a), rcond=1e-10), a, values=values)


ORDERS = [None, 2, 1, -1, 0, 3, 0.5, -2, math.inf, -math.inf, "fro", "nuc", "max"]


def _dims(data: st.DataObject, x: tuple) -> object:  # type: ignore[type-arg]
    count = data.draw(st.integers(0, 3))
    return data.draw(st.one_of(st.none(), st.just(dim_of(data, x)),
                               st.lists(st.integers(-len(x) - 1, len(x)), min_size=count, max_size=count).map(tuple)))


@SYMBOLIC
@settings(max_examples=examples(400), deadline=None)
@given(data=st.data())
def test_norms(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from([*sizes, const(0)], max_rank=4))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    ord = data.draw(st.sampled_from(ORDERS))
    dim, keepdim = _dims(data, x), data.draw(st.booleans())
    check(la.norm, lambda x, o, d, k: torch.linalg.norm(torch.randn(x), o, d, k), x, ord, dim, keepdim, values=values)
    # an ord of unknown value: the rule is told less than torch sees
    number = data.draw(st.sampled_from([o for o in ORDERS if not isinstance(o, str) and o is not None]))
    check(lambda x, o, d, k: la.norm(x, UNKNOWN, d, k), lambda x, o, d, k: torch.linalg.norm(torch.randn(x), o, d, k),
          x, number, dim, keepdim, values=values, told_less=True)
    check(la.vector_norm, lambda x, o, d, k: torch.linalg.vector_norm(torch.randn(x), o, d, k),
          x, number, dim, keepdim, values=values)
    pair = data.draw(st.lists(st.integers(-len(x) - 1, len(x)), min_size=data.draw(st.sampled_from([1, 2, 2, 2, 3])),
                              max_size=3).map(tuple))
    check(la.matrix_norm, lambda x, o, d, k: torch.linalg.matrix_norm(torch.randn(x), o, d, k),
          x, data.draw(st.sampled_from(["fro", "nuc", 2, -1, math.inf, 3])), pair, keepdim, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_vecdot(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, y = data.draw(shapes_from([*sizes, const(1)], max_rank=3)), data.draw(shapes_from([*sizes, const(1)], max_rank=3))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    dim = data.draw(st.integers(-4, 3))
    check(la.vecdot, lambda x, y, d: torch.linalg.vecdot(torch.randn(x), torch.randn(y), dim=d), x, y, dim,
          values=values)


def test_examples() -> None:
    batch = Variadic("Batch")
    assert la.solve(shape("B", "N", "N"), shape("B", "N")) == shape("B", "N")
    assert la.solve(shape("N", "N"), shape("N", "K")) == shape("N", "K")
    assert la.solve(shape(batch, "N", "N"), shape(batch, "N")) == shape(batch, "N")
    assert la.solve(shape("B", "N", "N"), shape("N", "K")) is None  # a batch of vectors when K is B
    assert la.solve(shape("N", "N"), shape("K", "N"), left=False) == shape("K", "N")
    with pytest.raises(ShapeRuleError, match="must have N rows"):
        la.solve(shape("N", "N"), shape("M", "K"))
    with pytest.raises(ShapeRuleError, match="square"):
        la.square(shape("B", "M", "N"))
    assert la.eigh(shape(batch, "N", "N")) == (shape(batch, "N"), shape(batch, "N", "N"))
    assert la.qr(shape("M", "M + 1")) == (shape("M", "M"), shape("M", "M + 1"))
    assert la.qr(shape("M", "N")) == (shape("M", None), shape(None, "N"))
    assert la.svd(shape("B", 5, 3), full_matrices=False) == (shape("B", 5, 3), shape("B", 3), shape("B", 3, 3))
    assert la.pinv(shape("B", "M", "N")) == shape("B", "N", "M")
    assert la.norm(shape("B", "D"), dim=-1) == shape("B")
    assert la.norm(shape("B", "D"), ord="fro") == ()
    assert la.vector_norm(shape(batch, "D"), dim=-1, keepdim=True) == shape(batch, 1)
    assert la.matrix_norm(shape("B", "M", "N")) == shape("B")
    with pytest.raises(ShapeRuleError, match="1-d or 2-d"):
        la.norm(shape("B", "M", "N"), ord=2)
