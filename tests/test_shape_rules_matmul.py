"""Soundness of the product and reordering rules against LibTorch (spec §7)."""

from __future__ import annotations

import pytest
import torch
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import Expr, const
from tyr.shape_rules import (
    ShapeRuleError,
    T,
    Variadic,
    addbmm,
    addmm,
    addmv,
    addr,
    baddbmm,
    bmm,
    cdist,
    dot,
    einsum,
    linear,
    matmul,
    mm,
    mT,
    mv,
    outer,
    permute,
    t,
    transpose,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
DIMS = st.integers(-5, 4)
T_WARNINGS = ("The use of `x.T` on tensors of dimension other than 2", r"Tensor\.m?T is deprecated on 0-D tensors",
              r"adjoint\(\) is deprecated on 0-D tensors")


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_matmul(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    check(matmul, lambda a, b: tensor(a) @ tensor(b), a, b, values=values)


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_matmul_with_variadics(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    a, b = data.draw(shapes_from(sizes, max_rank=3)), data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.booleans()):
        a = with_variadic(data, a, values)
    if data.draw(st.booleans()):
        b = with_variadic(data, b, values, name=data.draw(st.sampled_from(["Batch", "Other"])))
    check(matmul, lambda a, b: torch.matmul(tensor(a), tensor(b)), a, b, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_linear(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=4))
    w = data.draw(st.one_of(shapes_from(sizes, 2, 2), shapes_from(sizes, 0, 3)))
    bias = data.draw(st.one_of(st.none(), shapes_from(sizes, 0, 1), shapes_from(sizes, 2, 3)))
    if data.draw(st.booleans()):
        x = data.draw(st.sampled_from([with_variadic(data, x, values, at=0), x]))
    check(
        lambda x, w, b: linear(x, w, b),
        lambda x, w, b: F.linear(tensor(x), tensor(w), None if b is None else tensor(b)),
        x, w, bias, values=values,
        # torch's verdict on these biases depends on the input's memory layout
        may_give_up=bias is not None and (len(bias) >= 2 or len(w) == 1 and len(bias) == 1),
    )


@settings(max_examples=examples(30), deadline=None)
@given(data=st.data())
def test_linear_on_non_contiguous_input_with_a_bias_of_its_features(data: st.DataObject) -> None:
    """The layout-dependent paths in torch agree with the rule for the biases it claims to know."""
    sizes, values = draw_case(data, False)
    x = data.draw(shapes_from(sizes, 2, 4))
    w = data.draw(shapes_from(sizes, 2, 2))
    b = data.draw(shapes_from(sizes, 0, 1))
    check(linear, lambda x, w, b: F.linear(tensor(x).mT.contiguous().mT, tensor(w), tensor(b)), x, w, b)


@SYMBOLIC
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_outer(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(shapes_from(sizes, max_rank=2)), data.draw(shapes_from(sizes, max_rank=2))
    check(outer, lambda a, b: torch.outer(tensor(a), tensor(b)), a, b, values=values)


@st.composite
def fitting(draw: st.DrawFn, sizes: list[Expr], ranks: tuple[int, ...], vectors: bool = False) -> tuple[Expr, ...]:
    """Operands for a product `(B, N, K) @ (B, K, M)` (the last `ranks` dims of each), that mostly fit."""
    b, n, k, m = (draw(st.sampled_from(sizes)) for _ in range(4))
    full = {3: (b, n, k), 2: (n, k), 1: (k,)}
    shapes = [full[r] for r in ranks[:1]]
    second = {3: (b, k, m), 2: (k, m), 1: (k,) if vectors else (m,)}
    shapes += [second[r] for r in ranks[1:]]
    out = []
    for dims in shapes:
        if not draw(st.integers(0, 4)):
            dims = draw(shapes_from(sizes, max_rank=4))
        out.append(tuple(dims))
    return tuple(out)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_mm_bmm_mv_dot(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(fitting(sizes, (2, 2)))
    check(mm, lambda a, b: torch.mm(tensor(a), tensor(b)), a, b, values=values)
    a, b = data.draw(fitting(sizes, (3, 3)))
    check(bmm, lambda a, b: torch.bmm(tensor(a), tensor(b)), a, b, values=values)
    a, v = data.draw(fitting(sizes, (2, 1), vectors=True))
    check(mv, lambda a, v: torch.mv(tensor(a), tensor(v)), a, v, values=values)
    u, v = data.draw(fitting(sizes, (1, 1), vectors=True))
    check(dot, lambda u, v: torch.dot(tensor(u), tensor(v)), u, v, values=values)


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_products_with_a_variadic(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    a, b = data.draw(fitting(sizes, (3, 3)))
    a = with_variadic(data, a[data.draw(st.integers(0, len(a))):], values)
    check(bmm, lambda a, b: torch.bmm(tensor(a), tensor(b)), a, b, values=values)
    check(mm, lambda a, b: torch.mm(tensor(a), tensor(b)), a, b[1:], values=values)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_products_added_to_an_input(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    bias = data.draw(shapes_from(sizes, max_rank=3))
    a, b = data.draw(fitting(sizes, (2, 2)))
    check(addmm, lambda i, a, b: torch.addmm(tensor(i), tensor(a), tensor(b)), bias, a, b, values=values)
    a, b = data.draw(fitting(sizes, (3, 3)))
    check(baddbmm, lambda i, a, b: torch.baddbmm(tensor(i), tensor(a), tensor(b)), bias, a, b, values=values)
    check(addbmm, lambda i, a, b: torch.addbmm(tensor(i), tensor(a), tensor(b)), bias[1:], a, b, values=values)
    a, v = data.draw(fitting(sizes, (2, 1), vectors=True))
    check(addmv, lambda i, a, v: torch.addmv(tensor(i), tensor(a), tensor(v)), bias[2:], a, v, values=values,
          warns=("An output with one or more elements was resized",))  # torch's shortcut for an empty matrix
    u, v = data.draw(fitting(sizes, (1, 1)))
    check(addr, lambda i, u, v: torch.addr(tensor(i), tensor(u), tensor(v)), bias[1:], u, v, values=values)


@st.composite
def near(draw: st.DrawFn, target: tuple[Expr, ...], sizes: list[Expr]) -> tuple[Expr, ...]:
    """A shape for the input of an in-place product: mostly `target` (the product's), a size now and then made 1
    or another, or a dim dropped; sometimes any shape."""
    if not draw(st.integers(0, 5)):
        return tuple(draw(shapes_from(sizes, max_rank=3)))
    out = list(target)
    if out and not draw(st.integers(0, 2)):
        out[draw(st.integers(0, len(out) - 1))] = draw(st.sampled_from([const(1), *sizes]))
    if out and not draw(st.integers(0, 5)):
        del out[0]
    return tuple(out)


def _at(shape: tuple[Expr, ...], pos: int) -> Expr:
    return shape[pos] if -len(shape) <= pos < len(shape) else const(2)


@SYMBOLIC
@settings(max_examples=examples(100), deadline=None)
@given(data=st.data())
def test_products_added_in_place(symbolic: bool, data: st.DataObject) -> None:
    """`addmm_`, `baddbmm_`, `addmv_`, `addr_` need the input to have the product's shape exactly; `addbmm_`
    resizes an input that broadcasts to it (where that takes new memory)."""
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(fitting(sizes, (2, 2)))
    i = data.draw(near((_at(a, 0), _at(b, -1)), sizes))
    check(lambda i, a, b: addmm(i, a, b, op="addmm_", in_place=True),
          lambda i, a, b: tensor(i).addmm_(tensor(a), tensor(b)), i, a, b, values=values)
    a, b = data.draw(fitting(sizes, (3, 3)))
    i = data.draw(near((_at(a, 0), _at(a, 1), _at(b, -1)), sizes))
    check(lambda i, a, b: baddbmm(i, a, b, op="baddbmm_", in_place=True),
          lambda i, a, b: tensor(i).baddbmm_(tensor(a), tensor(b)), i, a, b, values=values)
    # torch resizes the input to the product's shape, and refuses where that keeps its memory (the same
    # number of elements): the expanded input then overlaps the result, a verdict on memory, not shapes
    check(lambda i, a, b: addbmm(i, a, b, op="addbmm_", in_place=True),
          lambda i, a, b: tensor(i).addbmm_(tensor(a), tensor(b)), i[1:], a, b, values=values, told_less=True)
    a, v = data.draw(fitting(sizes, (2, 1), vectors=True))
    i = data.draw(near((_at(a, 0),), sizes))
    check(lambda i, a, v: addmv(i, a, v, op="addmv_", in_place=True),
          lambda i, a, v: tensor(i).addmv_(tensor(a), tensor(v)), i, a, v, values=values)
    u, v = data.draw(fitting(sizes, (1, 1)))
    i = data.draw(near((_at(u, 0), _at(v, 0)), sizes))
    check(lambda i, u, v: addr(i, u, v, op="addr_", in_place=True),
          lambda i, u, v: tensor(i).addr_(tensor(u), tensor(v)), i, u, v, values=values)


@SYMBOLIC
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_cdist(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(fitting(sizes, (3, 3)))
    b = (*b[:-2], b[-1], a[-1]) if len(a) >= 1 and len(b) >= 2 and data.draw(st.booleans()) else b
    if data.draw(st.booleans()):
        a = a[data.draw(st.integers(0, len(a))):]
    if data.draw(st.integers(0, 3)) == 0:
        a = with_variadic(data, a, values, at=0)
    check(cdist, lambda a, b: torch.cdist(tensor(a), tensor(b)), a, b, values=values)


def test_products_need_exact_ranks() -> None:
    with pytest.raises(ShapeRuleError, match=r"bmm: the second batch must be a batch of matrices \(3-d\), not \(K, M\)"):
        bmm(shape("B", "N", "K"), shape("K", "M"))
    with pytest.raises(ShapeRuleError, match="mm: the first matrix must be a matrix"):
        mm(shape(Variadic("Batch"), "N", "K", "J"), shape("K", "M"))
    with pytest.raises(ShapeRuleError, match=r"dimension 0 of the first batch \(B\) does not match dimension 0"):
        bmm(shape("B", "N", "K"), shape(1, "K", "M"))
    assert baddbmm(shape(1, "M"), shape("B", "N", "K"), shape("B", "K", "M")) == shape("B", "N", "M")
    assert addmm(shape(None), shape("N", "K"), shape("K", 3)) == shape("N", 3)


@SYMBOLIC
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_transpose(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        x = with_variadic(data, x, values)
    check(transpose, lambda x, d0, d1: tensor(x).transpose(d0, d1), x, data.draw(DIMS), data.draw(DIMS),
          values=values)


@SYMBOLIC
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_permute(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    n = len(x)
    dims = data.draw(st.one_of(st.permutations(range(n)), st.lists(DIMS, max_size=5)).map(list))
    dims = [d - n if data.draw(st.booleans()) else d for d in dims]
    check(permute, lambda x, dims: tensor(x).permute(dims), x, dims, values=values)


@SYMBOLIC
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_T_t_mT_and_adjoint(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes))
    check(T, lambda x: tensor(x).T, x, values=values, warns=T_WARNINGS)
    check(t, lambda x: tensor(x).t(), x, values=values)
    check(mT, lambda x: tensor(x).mT, x, values=values, warns=T_WARNINGS)
    check(mT, lambda x: tensor(x).adjoint(), x, values=values, warns=T_WARNINGS)
    x = with_variadic(data, x, values)
    check(mT, lambda x: tensor(x).mT, x, values=values, warns=T_WARNINGS)
    check(t, lambda x: tensor(x).t(), x, values=values)


# -- einsum: random equations --------------------------------------------------------------------

LABELS = "abcdA"


@st.composite
def einsum_case(draw: st.DrawFn, sizes: list[Expr]) -> tuple[str, list[tuple[Expr, ...]]]:
    """A random equation and operand shapes that mostly, but not always, fit it."""
    label_size = {label: draw(st.sampled_from(sizes)) for label in LABELS}
    ellipsis = tuple(draw(st.lists(st.sampled_from(sizes), max_size=2)))
    operands: list[str] = []
    shapes: list[tuple[Expr, ...]] = []
    for _ in range(draw(st.integers(1, 3))):
        labels = draw(st.lists(st.sampled_from(LABELS), max_size=3))
        dims = [label_size[x] if draw(st.integers(0, 5)) else draw(st.sampled_from(sizes)) for x in labels]
        text = "".join(labels)
        if draw(st.booleans()):
            at = draw(st.integers(0, len(labels)))
            text = text[:at] + "..." + text[at:]
            part = ellipsis[draw(st.integers(0, len(ellipsis))) :]
            dims = dims[:at] + list(part) + dims[at:]
        if not draw(st.integers(0, 8)):
            dims = dims[1:] if dims and draw(st.booleans()) else [*dims, draw(st.sampled_from(sizes))]
        operands.append(text)
        shapes.append(tuple(dims))
    equation = ",".join(operands)
    if draw(st.booleans()):
        used = sorted(set("".join(operands).replace(".", "")))
        out = draw(st.permutations(used))[: draw(st.integers(0, len(used)))]
        text = "".join(out)
        if not draw(st.integers(0, 8)):
            text += draw(st.sampled_from(LABELS))
        if draw(st.booleans()):
            at = draw(st.integers(0, len(text)))
            text = text[:at] + "..." + text[at:]
        equation += "->" + text
    return equation, shapes


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_einsum(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    equation, shapes = data.draw(einsum_case(sizes))
    check(lambda eq, s: einsum(eq, s), lambda eq, s: torch.einsum(eq, *(tensor(x) for x in s)),
          equation, shapes, values=values)


def test_einsum_syntax_errors() -> None:
    for bad in ("i1", "..i", "i.....", "ij->ji->", "ij-"):
        with pytest.raises(ShapeRuleError):
            einsum(bad, [shape(2, 3)])
    with pytest.raises(ShapeRuleError, match="2 operands but 1"):
        einsum("ij,jk", [shape(2, 3)])


def test_einsum_with_variadics() -> None:
    batch = Variadic("Batch")
    assert einsum("...ij,jk->...ik", [shape(batch, "N", "D"), shape("D", "E")]) == shape(batch, "N", "E")
    assert einsum("ij,...j", [shape("N", "D"), shape(batch, "D")]) == shape(batch, "N")
    assert einsum("ij", [shape(batch, "D")]) == (None, None)  # two dims, whatever Batch holds
    with pytest.raises(ShapeRuleError, match="subscript j is D"):
        einsum("...ij,jk", [shape(batch, "N", "D"), shape("E", "K")])


def test_matmul_examples_and_messages() -> None:
    batch = Variadic("Batch")
    assert matmul(shape(batch, "D"), shape("D", "E")) == shape(batch, "E")
    assert matmul(shape(batch, "D"), shape("D")) == shape(batch)
    assert matmul(shape(batch, "T", "D"), shape(batch, "D", "S")) == shape(batch, "T", "S")
    assert matmul(shape("D"), shape(batch, "D", "E")) == shape(batch, "E")
    assert matmul(shape("N", batch, "D"), shape("D", "E")) is None  # is N a row or a batch dim?
    with pytest.raises(ShapeRuleError, match=r"matmul: dimension 1 of the left operand \(768\) does not match "
                                             r"dimension 0 of the right operand \(512\)"):
        matmul(shape(32, 768), shape(512, 10))
    with pytest.raises(ShapeRuleError, match=r"dimension -1 of the left operand \(D\)"):
        matmul(shape(batch, "D"), shape("E", 3))
    with pytest.raises(ShapeRuleError, match=r"linear: dimension 1 of the input \(M\) does not match dimension 1 "
                                             r"of the weight \(K\)"):
        linear(shape("B", "M"), shape("N", "K"))
    assert linear(shape(batch, "D"), shape("E", "D"), shape("E")) == shape(batch, "E")
    assert linear(shape("B", "D"), shape("E", "D"), shape("B", "E")) is None  # torch: layout-dependent
