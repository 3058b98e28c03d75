"""Soundness against LibTorch (spec §7) of the rules for the less common ops: `tensordot`, `kron`,
`cross`, `diag` / `diagflat` / `diag_embed`, `diff`, `atleast_{1,2,3}d`, `hstack` / `vstack` /
`dstack` / `column_stack`, `quantile`, `masked_select`, `nonzero`, `where(condition)`, and
`torch.fft`: the transforms, `fftshift` / `ifftshift` and `fftfreq` / `rfftfreq`."""

from __future__ import annotations

import warnings

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, dim_of, draw_case, examples, shape, shapes_from, tensor, with_variadic

from tyr._symbolic import const
from tyr.shape_rules import (
    UNKNOWN,
    ShapeRuleError,
    Variadic,
    atleast,
    column_stack,
    cross,
    diag,
    diag_embed,
    diagflat,
    diff,
    dstack,
    fft,
    fftfreq,
    fftn,
    fftshift,
    hstack,
    kron,
    masked_select,
    nonzero,
    nonzero_tuple,
    quantile,
    stft,
    tensordot,
    vstack,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
STFT_WARNINGS = ("A window was not provided", "stft with return_complex=False is deprecated")


def _quiet(op):  # type: ignore[no-untyped-def]
    """`op` with torch's deprecation warnings (`torch.cross` without `dim`) silenced."""

    def run(*args):  # type: ignore[no-untyped-def]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return op(*args)

    return run


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_tensordot(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    a, b = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    if data.draw(st.booleans()):
        dims: object = data.draw(st.integers(-1, 4))
    else:
        n = data.draw(st.integers(0, 3))
        dims = (data.draw(st.lists(st.integers(-4, 3), min_size=n, max_size=n)),
                data.draw(st.lists(st.integers(-4, 3), min_size=n, max_size=data.draw(st.sampled_from([n, n + 1])))))
    if data.draw(st.integers(0, 3)) == 0:
        a = with_variadic(data, a, values)
    check(tensordot, lambda a, b, d: torch.tensordot(tensor(a), tensor(b), dims=d), a, b, dims, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_kron_and_cross(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    sizes = [*sizes, const(3)]
    a, b = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    check(kron, lambda a, b: torch.kron(tensor(a), tensor(b)), a, b, values=values)
    dim = data.draw(st.one_of(st.none(), st.integers(-4, 3)))
    check(cross, _quiet(lambda a, b, d: torch.cross(tensor(a), tensor(b), dim=d)), a, b, dim, values=values)
    if dim is not None:
        check(cross, lambda a, b, d: torch.linalg.cross(tensor(a), tensor(b), dim=d), a, b, dim, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_diag_family(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    offset = data.draw(st.integers(-3, 3))
    check(diag, lambda x, k: torch.diag(tensor(x), k), x, offset, values=values)
    check(diagflat, lambda x, k: torch.diagflat(tensor(x), k), x, offset, values=values)
    d1, d2 = data.draw(st.integers(-4, 3)), data.draw(st.integers(-4, 3))
    check(diag_embed, lambda x, k, a, b: torch.diag_embed(tensor(x), k, a, b), x, offset, d1, d2, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_diff(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    n, dim = data.draw(st.integers(-1, 3)), dim_of(data, x)
    ends = [data.draw(st.one_of(st.just(UNKNOWN), shapes_from(sizes, max_rank=3))) for _ in range(2)]
    if x and data.draw(st.booleans()):  # mostly an end that fits
        ends[0] = tuple(data.draw(st.sampled_from(sizes)) if i == dim % len(x) else s for i, s in enumerate(x))

    def torch_diff(x, n, dim, pre, app):  # type: ignore[no-untyped-def]
        given = {k: tensor(v) for k, v in (("prepend", pre), ("append", app)) if v is not UNKNOWN}
        return torch.diff(tensor(x), n=n, dim=dim, **given)

    check(diff, torch_diff, x, n, dim, *ends, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_stacking(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    first = data.draw(shapes_from(sizes, max_rank=4))
    # mostly tensors that differ from the first in one dim
    others = [
        tuple(data.draw(st.sampled_from(sizes)) if data.draw(st.integers(0, 3)) == 0 else s for s in first)
        if data.draw(st.integers(0, 3)) else data.draw(shapes_from(sizes, max_rank=4))
        for _ in range(data.draw(st.integers(0, 2)))
    ]
    shapes = [first, *others]
    if data.draw(st.integers(0, 4)) == 0:
        shapes[0] = with_variadic(data, shapes[0], values)
    for n, op in ((1, torch.atleast_1d), (2, torch.atleast_2d), (3, torch.atleast_3d)):
        check(lambda x, n=n: atleast(x, n), lambda x, op=op: op(tensor(x)), first, values=values)
    for rule, op in ((hstack, torch.hstack), (vstack, torch.vstack), (dstack, torch.dstack),
                     (column_stack, torch.column_stack)):
        check(rule, lambda xs, op=op: op([tensor(x) for x in xs]), shapes, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_quantile(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    q = data.draw(st.sampled_from([(), (const(2),), (const(1),), (const(2), const(2))]))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x))))
    keepdim = data.draw(st.booleans())

    def torch_quantile(x, q, dim, keepdim):  # type: ignore[no-untyped-def]
        levels = 0.5 if q == () else torch.rand(q)
        return torch.quantile(tensor(x), levels, dim=dim, keepdim=keepdim)

    check(quantile, torch_quantile, x, q, dim, keepdim, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_selection(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, mask = data.draw(shapes_from(sizes)), data.draw(shapes_from(sizes))
    # how many elements are picked is the values' business: the rule only knows it is 1-d
    check(masked_select, lambda x, m: torch.masked_select(tensor(x), tensor(m, torch.bool)), x, mask,
          values=values, told_less=True)
    check(nonzero, lambda x: torch.nonzero(tensor(x)), x, values=values, told_less=True)
    check(nonzero_tuple, lambda x: torch.nonzero(tensor(x), as_tuple=True), x, values=values, told_less=True)
    check(nonzero_tuple, lambda x: torch.where(tensor(x, torch.bool)), x, values=values, told_less=True)


KINDS = {
    "fft": (torch.fft.fft, "complex"), "ifft": (torch.fft.ifft, "complex"), "rfft": (torch.fft.rfft, "real_input"),
    "ihfft": (torch.fft.ihfft, "real_input"), "irfft": (torch.fft.irfft, "real_output"),
    "hfft": (torch.fft.hfft, "real_output"),
}
N_KINDS = {
    "fftn": (torch.fft.fftn, "complex"), "ifftn": (torch.fft.ifftn, "complex"),
    "rfftn": (torch.fft.rfftn, "real_input"), "irfftn": (torch.fft.irfftn, "real_output"),
    "ihfftn": (torch.fft.ihfftn, "real_input"), "hfftn": (torch.fft.hfftn, "real_output"),
    # the two-dim forms transform dims (-2, -1) unless told others
    "fft2": (torch.fft.fft2, "complex"), "ifft2": (torch.fft.ifft2, "complex"),
    "rfft2": (torch.fft.rfft2, "real_input"), "irfft2": (torch.fft.irfft2, "real_output"),
    "ihfft2": (torch.fft.ihfft2, "real_input"), "hfft2": (torch.fft.hfft2, "real_output"),
}


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_fft(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    sizes = [*sizes, const(0)]
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    name = data.draw(st.sampled_from(sorted(KINDS)))
    op, kind = KINDS[name]
    # a length the rule is told (an unknown one, hidden as None, would read as no length given)
    known = [size for size in sizes if not any(name.startswith("U") for name in size.symbols)]
    n = data.draw(st.one_of(st.none(), st.sampled_from([*known, const(-1)])))
    dim = dim_of(data, x)
    real = name in ("rfft", "ihfft")

    def torch_fft(x, n, dim):  # type: ignore[no-untyped-def]
        t = tensor(x) if real else tensor(x, torch.complex64)
        return op(t, n=n, dim=dim)

    # MKL rejects some transforms of tensors with no elements, other FFT backends need not: the rule may accept them
    empty = any(size is not None and not isinstance(size, Variadic) and size.const_value == 0 for size in x)
    check(lambda x, n, d: fft(x, n, d, kind=kind, op=name), torch_fft, x, n, dim, values=values, told_less=empty)
    name = data.draw(st.sampled_from(sorted(N_KINDS)))
    op, kind = N_KINDS[name]
    count = data.draw(st.integers(0, 3))
    s = data.draw(st.one_of(st.none(), st.lists(st.sampled_from([*sizes, const(-1)]), min_size=count, max_size=count)))
    dims = data.draw(st.one_of(st.none(), st.lists(st.integers(-3, 2), min_size=count, max_size=count + 1)))
    real = kind == "real_input"
    two = name.endswith("2")

    def torch_fftn(x, s, dims):  # type: ignore[no-untyped-def]
        t = tensor(x) if real else tensor(x, torch.complex64)
        return op(t, s=s) if two and dims is None else op(t, s=s, dim=dims)

    def rule(x, s, dims):  # type: ignore[no-untyped-def]
        return fftn(x, s, [-2, -1] if two and dims is None else dims, kind=kind, op=name)

    check(rule, torch_fftn, x, s, dims, values=values, told_less=empty)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_fft_helpers(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, max_rank=3))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    count = data.draw(st.integers(0, 3))
    dim = data.draw(st.one_of(st.none(), st.just(dim_of(data, x)),
                              st.lists(st.integers(-4, 3), min_size=count, max_size=count).map(tuple)))
    for name in ("fftshift", "ifftshift"):
        op = getattr(torch.fft, name)
        check(lambda x, d, name=name: fftshift(x, d, op=name), lambda x, d, op=op: op(tensor(x), dim=d), x, dim,
              values=values)
    n = data.draw(st.sampled_from([*sizes, const(-1), const(-2), const(-3), const(-4)]))
    check(fftfreq, lambda n: torch.fft.fftfreq(n), n, values=values)
    check(lambda n: fftfreq(n, real=True, op="rfftfreq"), lambda n: torch.fft.rfftfreq(n), n, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_stft(symbolic: bool, data: st.DataObject) -> None:
    """A signal of any rank; the window's lengths, hop and padding of small constants; a window of its length or any."""
    sizes, values = draw_case(data, symbolic)
    length = data.draw(st.sampled_from([*sizes, const(12), const(20)]))
    x = data.draw(st.one_of(st.just((length,)), st.tuples(st.sampled_from(sizes), st.just(length)),
                            shapes_from(sizes, max_rank=3)))
    n_fft = data.draw(st.integers(-1, 9))
    hop = data.draw(st.one_of(st.none(), st.integers(0, 5)))
    win = data.draw(st.one_of(st.none(), st.integers(0, 10)))
    wanted = (const(win if win is not None else n_fft),)
    window = data.draw(st.one_of(st.none(), st.just(wanted), shapes_from(sizes, max_rank=2)))
    center = data.draw(st.booleans())
    pad_mode = data.draw(st.sampled_from(["reflect", "constant"]))
    onesided = data.draw(st.sampled_from([None, True, False]))
    return_complex = data.draw(st.booleans())
    align = data.draw(st.sampled_from([None, True, False]))

    def run(x: tuple[int, ...], window: tuple[int, ...] | None) -> Any:
        return torch.stft(tensor(x), n_fft, hop, win, None if window is None else tensor(window), center, pad_mode,
                          onesided=onesided, return_complex=return_complex, align_to_window=align)

    def rule(x: Any, window: Any) -> Any:
        return stft(x, n_fft, hop, win, window, center=center, pad_mode=pad_mode, onesided=onesided,
                    return_complex=return_complex, align_to_window=align)

    # a real signal is onesided by default, which the rule does not know; MKL rejects some signals with no
    # elements, other FFT backends need not; frames aligned to a shorter window are torch's own affair
    empty = any(size.evaluate(values) == 0 for size in x)
    aligned = bool(align) and (win if win is not None else n_fft) != n_fft
    check(rule, run, x, window, values=values, told_less=onesided is None or empty or aligned, warns=STFT_WARNINGS)


def test_examples() -> None:
    assert tensordot(shape("B", 3, 4), shape(3, 4, "E"), 2) == shape("B", "E")
    assert tensordot(shape("B", "D"), shape("D", "E"), ([1], [0])) == shape("B", "E")
    with pytest.raises(ShapeRuleError, match="first tensor"):
        tensordot(shape("B", 3, 4), shape(4, 3, "E"), 2)
    assert kron(shape(2, "N"), shape(3)) == shape(2, "3*N")
    assert diag(shape("N"), 1) == shape("N + 1", "N + 1")
    assert diag_embed(shape("B", "N")) == shape("B", "N", "N")
    assert diff(shape("B", "T")) == shape("B", "T - 1")
    assert hstack([shape("B", 3), shape("B", 4)]) == shape("B", 7)
    assert fft(shape("B", "T"), kind="real_input", op="rfft") == shape("B", "T//2 + 1")
    assert fftn(shape("B", "H", "W"), dims=(1, 2), kind="real_output", op="irfft2") == shape("B", "H", "2*W - 2")
    assert quantile(shape("B", "T"), shape(5), dim=1) == shape(5, "B")
    assert masked_select(shape("B", "T"), shape("T")) == shape(None)
    with pytest.raises(ShapeRuleError, match="masked_select"):
        masked_select(shape("B", 3), shape(4))
