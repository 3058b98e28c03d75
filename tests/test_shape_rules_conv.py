"""Soundness of convolution, pooling, padding and interpolation rules against LibTorch (spec §7)."""

from __future__ import annotations

from typing import Any

import pytest
import torch.nn.functional as F
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import (
    check,
    draw_case,
    examples,
    lower,
    rule_shape,
    run_torch,
    shape,
    shapes_from,
    tensor,
    torch_shape,
    with_variadic,
)

from tyr._symbolic import Expr, const, parse
from tyr.shape_rules import (
    UNKNOWN,
    ShapeRuleError,
    Variadic,
    adaptive_pool_nd,
    affine_grid,
    conv_nd,
    conv_output_size,
    conv_transpose_nd,
    fold_patches,
    grid_sample,
    interpolate,
    pad,
    pool_nd,
    unfold_patches,
)

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
SAME_WARNING = ("Using padding='same' with even kernel lengths and odd dilation",)
CONV = {1: F.conv1d, 2: F.conv2d, 3: F.conv3d}
CONV_T = {1: F.conv_transpose1d, 2: F.conv_transpose2d}
POOL = {("max", 1): F.max_pool1d, ("max", 2): F.max_pool2d, ("avg", 1): F.avg_pool1d, ("avg", 2): F.avg_pool2d,
        ("lp", 1): lambda x, *a, **kw: F.lp_pool1d(x, 2.0, *a, **kw),
        ("lp", 2): lambda x, *a, **kw: F.lp_pool2d(x, 2.0, *a, **kw)}


def per_dim(n: int, values: st.SearchStrategy[int]) -> st.SearchStrategy[Any]:
    """An int, or a list of them (usually one per dim)."""
    return st.one_of(values, values, st.lists(values, min_size=n, max_size=n), st.lists(values, min_size=1, max_size=3))


@st.composite
def conv_case(draw: st.DrawFn, sizes: list[Expr], transposed: bool) -> dict[str, Any]:
    """A convolution that is usually valid; about half the time one thing about it is broken."""
    n = draw(st.sampled_from([1, 2] if transposed else [1, 2, 2, 3]))
    groups = draw(st.sampled_from([1, 1, 2]))
    per_group_in, per_group_out = draw(st.integers(1, 2)), draw(st.integers(1, 2))
    kernel = [const(draw(st.integers(1, 3))) for _ in range(n)]
    pool = [*sizes, const(4), const(5), const(6)] if n < 3 else [const(3), const(4)]
    spatial = [draw(st.sampled_from(pool)) for _ in range(n)]
    batch: list[Expr] = draw(st.sampled_from([[], [const(1)], [const(2)]]))
    case: dict[str, Any] = {
        "n": n, "groups": groups,
        "stride": draw(per_dim(n, st.integers(1, 2))),
        "dilation": draw(per_dim(n, st.integers(1, 2))),
        "padding": draw(per_dim(n, st.integers(0, 1))),
    }
    if transposed:
        case["output_padding"] = draw(per_dim(n, st.integers(0, 1)))
    elif not draw(st.integers(0, 3)):
        case["padding"] = draw(st.sampled_from(["same", "valid"]))
        if case["padding"] == "same":
            case["stride"] = 1
    channels = const(per_group_in * groups)
    out_channels = const(per_group_out * groups)
    bias: tuple[Expr, ...] | None = draw(st.sampled_from([None, (out_channels,)]))
    # at most one deliberate fault
    fault = draw(st.sampled_from(["none"] * 8 + [
        "zero batch", "zero channels", "zero spatial", "zero kernel", "channels", "groups", "bias", "rank",
        "stride", "dilation", "padding", "small", "out channels",
    ]))
    if fault == "zero batch":
        batch = [const(0)]
    elif fault == "zero channels":
        channels = const(0)
        per_group_in = 0
    elif fault == "zero spatial":
        spatial[0] = const(0)
    elif fault == "zero kernel":
        kernel[-1] = const(0)
    elif fault == "channels":
        channels = const(draw(st.integers(0, 4)))
    elif fault == "groups":
        case["groups"] = draw(st.sampled_from([0, 3, 4]))
    elif fault == "bias":
        bias = draw(st.sampled_from([(const(1),), (out_channels, const(1)), (const(5),)]))
    elif fault == "rank":
        batch = [const(1), const(1)] if batch else batch
        spatial = spatial[:-1] if not batch else spatial
    elif fault == "stride":
        case["stride"] = draw(per_dim(n, st.integers(-1, 0)))
    elif fault == "dilation":
        case["dilation"] = draw(per_dim(n, st.integers(-1, 0)))
    elif fault == "padding":
        key = "output_padding" if transposed and draw(st.booleans()) else "padding"
        case[key] = draw(per_dim(n, st.sampled_from([-1, 2, 3])))
    elif fault == "small":
        spatial = [const(1)] * n
        kernel = [const(3)] * n
    elif fault == "out channels":
        out_channels = const(draw(st.integers(0, 3)))
        per_group_out = out_channels.const_value or 0
    case["x"] = (*batch, channels, *spatial)
    if transposed:
        case["weight"] = (channels if fault != "channels" else const(per_group_in * groups), const(per_group_out),
                          *kernel)
    else:
        case["weight"] = (out_channels, const(per_group_in), *kernel)
    case["bias"] = bias
    return case


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_conv(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    c = data.draw(conv_case(sizes, transposed=False))
    kw = {k: c[k] for k in ("stride", "padding", "dilation", "groups")}
    check(
        lambda x, w, b: conv_nd(x, w, b, n=c["n"], **kw),
        lambda x, w, b: CONV[c["n"]](tensor(x), tensor(w), None if b is None else tensor(b), **kw),
        c["x"], c["weight"], c["bias"], values=values, warns=SAME_WARNING,
    )


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_conv_with_sizes_for_padding_and_dilation(symbolic: bool, data: st.DataObject) -> None:
    """A padding and a dilation that are sizes (`padding=(K - 1)*L, dilation=L` in a TCN block)."""
    sizes, values = draw_case(data, symbolic)
    c = data.draw(conv_case(sizes, transposed=False))
    known = [size for size in sizes if not (size.symbol_name or "").startswith("U")]  # (`U0` is unknown to rules)
    padding = data.draw(st.sampled_from([*known, const(0), const(1)]))
    dilation = data.draw(st.sampled_from([*known, const(1), const(2)]))
    stride, groups, n = c["stride"], c["groups"], c["n"]
    check(
        lambda x, w, b, p, d: conv_nd(x, w, b, stride=stride, padding=p, dilation=d, groups=groups, n=n),
        lambda x, w, b, p, d: CONV[n](tensor(x), tensor(w), None if b is None else tensor(b), stride=stride,
                                      padding=p, dilation=d, groups=groups),
        c["x"], c["weight"], c["bias"], padding, dilation, values=values,
    )


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_conv_transpose(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    c = data.draw(conv_case(sizes, transposed=True))
    kw = {k: c[k] for k in ("stride", "padding", "output_padding", "groups", "dilation")}
    check(
        lambda x, w, b: conv_transpose_nd(x, w, b, n=c["n"], **kw),
        lambda x, w, b: CONV_T[c["n"]](tensor(x), tensor(w), None if b is None else tensor(b), **kw),
        c["x"], c["weight"], c["bias"], values=values, may_give_up=True,  # an output size of 0: see the rule
    )


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_pool(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    kind = data.draw(st.sampled_from(["max", "avg", "lp"]))
    n = data.draw(st.sampled_from([1, 2]))
    spatial = [*sizes, const(3), const(4), const(5)]
    x = (*data.draw(shapes_from([const(0), const(1), const(2)], max_rank=1)), data.draw(st.sampled_from(sizes)),
         *(data.draw(st.sampled_from(spatial)) for _ in range(n)))
    if not data.draw(st.integers(0, 6)):
        x = data.draw(shapes_from(spatial, min_rank=n, max_rank=n + 3))
    odd = not data.draw(st.integers(0, 4))  # now and then a non-positive kernel or stride, or too much padding
    kw: dict[str, Any] = {
        "kernel_size": data.draw(per_dim(n, st.integers(0 if odd else 1, 3))),
        "stride": data.draw(st.one_of(st.none(), per_dim(n, st.integers(0 if odd else 1, 3)))),
        "padding": data.draw(per_dim(n, st.integers(-1 if odd else 0, 2 if odd else 1))),
        "ceil_mode": data.draw(st.booleans()),
    }
    if kind == "max":
        kw["dilation"] = data.draw(per_dim(n, st.integers(1, 2)))
    if kind == "lp":  # no padding; lp_pool1d's kernel is an int (it multiplies by it, a TypeError otherwise)
        del kw["padding"]
        if n == 1:
            kw["kernel_size"] = data.draw(st.integers(0 if odd else 1, 3))
    check(lambda x: pool_nd(x, n=n, kind=kind, **kw), lambda x: POOL[kind, n](tensor(x), **kw), x, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_pool_with_a_size_for_kernel(symbolic: bool, data: st.DataObject) -> None:
    """A kernel or stride that is a size (`F.avg_pool2d(x, x.shape[2:])`, `kernel_size=t + 1`)."""
    sizes, values = draw_case(data, symbolic)
    known = [s for s in sizes if not s.symbols & {"U0", "U1"}]
    kind = data.draw(st.sampled_from(["max", "avg"]))
    n = data.draw(st.sampled_from([1, 2]))
    spatial = [data.draw(st.sampled_from([*known, const(3)])) for _ in range(n)]
    x = (data.draw(st.sampled_from(known)), *spatial)
    window = st.sampled_from([*known, *spatial, *(s + 1 for s in spatial), const(2)])
    kernel = [data.draw(window) for _ in range(n)]
    stride = data.draw(st.one_of(st.none(), st.lists(window, min_size=n, max_size=n)))
    padding = data.draw(st.integers(0, 1))
    ceil_mode = data.draw(st.booleans())

    def torch_pool(x: Any, k: Any, s: Any) -> Any:
        return POOL[kind, n](tensor(x), k, s, padding, ceil_mode=ceil_mode)

    check(lambda x, k, s: pool_nd(x, k, s, padding, ceil_mode=ceil_mode, n=n, kind=kind), torch_pool, x, kernel,
          stride, values=values)


# -- items of unknown value ---------------------------------------------------------------------------
#
# A kernel, stride, padding or dilation item the checker cannot read (a plain int) is `UNKNOWN` to the
# rule (a kernel size in the weight: None).  The rule must agree with torch on every dim whose items
# are known, leave the others unknown, and raise only errors that hold whatever the hidden items are.


def concrete(s: Any) -> Any:
    return tensor(lower(s, {}))


def hide_items(data: st.DataObject, value: Any, n: int, hidden: set[int]) -> tuple[Any, list[tuple[int, ...]]]:
    """`value` (an int or a list) with some of its per-dim items replaced by UNKNOWN, now and then all
    of it; the dims whose item is hidden are added to `hidden`.  Also the positions hidden, to draw
    other values for (`()` for the whole argument)."""
    if isinstance(value, str) or not data.draw(st.integers(0, 2)):
        return value, []
    if not data.draw(st.integers(0, 5)):
        hidden.update(range(n))
        return UNKNOWN, [()]
    items = [value] * n if isinstance(value, int) else list(value)
    if len(items) == 1:
        items = items * n
    positions = data.draw(st.lists(st.integers(0, len(items) - 1), min_size=1, max_size=len(items), unique=True))
    for i in positions:
        items[i] = UNKNOWN
        hidden.add(i)
    return items, [(i,) for i in positions]


def fill_in(value: Any, full: Any, positions: list[tuple[int, ...]], draw: Any) -> Any:
    """The argument torch is given for another choice of its hidden items (`draw()` gives each)."""
    if not positions:
        return full
    if positions == [()]:
        return draw()
    return [draw() if item is UNKNOWN else item for item in value]


OTHER_ITEMS = {"kernel_size": st.integers(1, 4), "stride": st.integers(1, 3), "padding": st.integers(0, 2),
               "output_padding": st.integers(0, 1), "dilation": st.integers(1, 2), "weight": st.integers(1, 3)}
"""Other values for a hidden item, which torch is given to see that a rule's error does not depend on it."""

Positions = dict[str, list[tuple[int, ...]]]


def hide_args(data: st.DataObject, real_args: dict[str, Any], names: Any, n: int) -> tuple[dict[str, Any], Positions, set[int]]:
    """`real_args` with per-dim items of the arguments `names` hidden (`hide_items`): the arguments for the
    rule, the positions hidden in each, and the spatial dims whose item is hidden."""
    hidden: set[int] = set()
    hidden_args = dict(real_args)
    positions: Positions = {}
    for name in names:
        hidden_args[name], positions[name] = hide_items(data, real_args[name], n, hidden)
    return hidden_args, positions, hidden


def assert_rejected_whatever_hidden(op: Any, real: Any, real_args: dict[str, Any], hidden_args: dict[str, Any],
                                    positions: Positions, data: st.DataObject, err: ShapeRuleError,
                                    warns: tuple[str, ...]) -> None:
    """The rule rejected `hidden_args`: the error must not depend on a hidden item, so torch rejects the
    call (`real`) and rejects it for other values of the hidden items too."""
    assert isinstance(real, BaseException), f"torch accepts {real_args}, the rule rejects {hidden_args}: {err}"
    for _ in range(3):
        again = {k: fill_in(hidden_args[k], v, positions.get(k, []), lambda k=k: data.draw(OTHER_ITEMS[k]))
                 for k, v in real_args.items()}
        other = run_torch(lambda again=again: op(**again), (), warns)
        assert isinstance(other, BaseException), f"the rule rejects {hidden_args} ({err}), torch accepts {again}"


def check_hidden(rule: Any, op: Any, real_args: dict[str, Any], hidden_args: dict[str, Any], positions: Positions,
                 hidden: set[int], n: int, data: st.DataObject, *, exact_when_hidden: bool = False,
                 may_give_up: bool = False) -> None:
    """The rule on `hidden_args` against torch on `real_args` (every shape concrete)."""
    real = run_torch(lambda: op(**real_args), (), SAME_WARNING)
    try:
        got: Any = rule(**hidden_args)
    except ShapeRuleError as err:
        assert_rejected_whatever_hidden(op, real, real_args, hidden_args, positions, data, err, SAME_WARNING)
        return
    if isinstance(real, BaseException) or (got is None and may_give_up):
        return  # a hidden item may be what makes torch reject the call
    assert got is not None, f"no shape for {hidden_args}"
    evaluated, expected = rule_shape(got, {}), torch_shape(real)
    assert len(evaluated) == len(expected), f"{evaluated} for {expected}: {hidden_args}"
    first = len(expected) - n
    for i, (e, r) in enumerate(zip(evaluated, expected)):
        if i >= first and i - first in hidden and not exact_when_hidden:
            assert e is None, f"dim {i} depends on a hidden item, yet {evaluated} for {hidden_args}"
        elif i >= first and i - first in hidden:
            assert e in (None, r), f"dim {i}: {evaluated}, torch {expected}, for {hidden_args}"
        else:
            assert e == r, f"dim {i}: {evaluated}, torch {expected}, for {hidden_args}"


@pytest.mark.parametrize("transposed", [False, True], ids=["conv", "conv_transpose"])
@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_conv_with_unknown_items(transposed: bool, data: st.DataObject) -> None:
    sizes, _ = draw_case(data, False)
    c = data.draw(conv_case(sizes, transposed=transposed))
    n = c["n"]
    names = ("stride", "padding", "output_padding", "dilation") if transposed else ("stride", "padding", "dilation")
    real_args = {"input": c["x"], "weight": c["weight"], "bias": c["bias"], "groups": c["groups"],
                 **{k: c[k] for k in names}}
    hidden_args, positions, hidden = hide_args(data, real_args, names, n)
    weight = list(c["weight"])
    if len(weight) == n + 2 and not data.draw(st.integers(0, 2)):  # a kernel size of unknown value
        i = data.draw(st.integers(0, n - 1))
        weight[2 + i] = None
        hidden.add(i)
        hidden_args["weight"] = tuple(weight)
    same = c["padding"] == "same"
    rule = conv_transpose_nd if transposed else conv_nd
    op = CONV_T[n] if transposed else CONV[n]

    def run(input: Any, weight: Any, bias: Any, **kw: Any) -> Any:
        return op(concrete(input), concrete(weight), None if bias is None else concrete(bias), **kw)

    def rule_on(**kw: Any) -> Any:
        return rule(kw.pop("input"), kw.pop("weight"), kw.pop("bias"), n=n, **kw)

    check_hidden(rule_on, run, real_args, hidden_args, positions, hidden, n, data,
                 exact_when_hidden=same, may_give_up=transposed)


@settings(max_examples=examples(300), deadline=None)
@given(data=st.data())
def test_pool_with_unknown_items(data: st.DataObject) -> None:
    kind = data.draw(st.sampled_from(["max", "avg"]))
    n = data.draw(st.sampled_from([1, 2]))
    x = (*data.draw(st.sampled_from([(), (const(1),), (const(2),)])), const(data.draw(st.integers(1, 2))),
         *(const(data.draw(st.integers(1, 6))) for _ in range(n)))
    odd = not data.draw(st.integers(0, 4))
    kw: dict[str, Any] = {
        "kernel_size": data.draw(per_dim(n, st.integers(0 if odd else 1, 3))),
        "stride": data.draw(per_dim(n, st.integers(0 if odd else 1, 3))),
        "padding": data.draw(per_dim(n, st.integers(-1 if odd else 0, 2 if odd else 1))),
        "ceil_mode": data.draw(st.booleans()),
    }
    names = ["kernel_size", "stride", "padding"]
    if kind == "max":
        kw["dilation"] = data.draw(per_dim(n, st.integers(1, 2)))
        names.append("dilation")
    real_args = {"input": x, **kw}
    hidden_args, positions, hidden = hide_args(data, real_args, names, n)
    check_hidden(lambda input, **a: pool_nd(input, n=n, kind=kind, **a),
                 lambda input, **a: POOL[kind, n](concrete(input), **a), real_args, hidden_args, positions,
                 hidden, n, data)


@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_unfold_with_unknown_items(data: st.DataObject) -> None:
    x = data.draw(shapes_from([const(1), const(2), const(4), const(5)], min_rank=3, max_rank=4))
    kw = {"kernel_size": data.draw(per_dim(2, st.integers(0, 3))), "dilation": data.draw(per_dim(2, st.integers(1, 2))),
          "padding": data.draw(per_dim(2, st.integers(0, 2))), "stride": data.draw(per_dim(2, st.integers(1, 3)))}
    real_args = {"input": x, **kw}
    hidden_args, positions, hidden = hide_args(data, real_args, kw, 2)
    # the output's dims are (N, C*kh*kw, L): a hidden item leaves L unknown, a hidden kernel size C*kh*kw too
    kernel_hidden = positions["kernel_size"] != []

    def op(input: Any, **a: Any) -> Any:
        return F.unfold(concrete(input), **a)

    real = run_torch(lambda: op(**real_args), (), ())
    try:
        got: Any = unfold_patches(x, **{k: hidden_args[k] for k in kw})
    except ShapeRuleError as err:
        assert_rejected_whatever_hidden(op, real, real_args, hidden_args, positions, data, err, ())
        return
    if isinstance(real, BaseException):
        return
    evaluated, expected = rule_shape(got, {}), torch_shape(real)
    assert evaluated[:-2] == expected[:-2]
    assert evaluated[-2] == (None if kernel_hidden else expected[-2])
    assert evaluated[-1] == (None if hidden else expected[-1])


@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_batched_input_as_a_variadic(data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    c = data.draw(conv_case(sizes, transposed=False))
    kw = {k: c[k] for k in ("stride", "padding", "dilation", "groups")}
    values["Batch"] = tuple(data.draw(st.lists(st.integers(1, 2), max_size=1)))
    x = with_variadic(data, c["x"][-c["n"] - 1 :], values, at=0)
    check(
        lambda x, w: conv_nd(x, w, n=c["n"], **kw),
        lambda x, w: CONV[c["n"]](tensor(x), tensor(w), **kw),
        x, c["weight"], values=values, warns=SAME_WARNING,
    )
    check(lambda x: pool_nd(x, 2, n=c["n"]), lambda x: [F.max_pool1d, F.max_pool2d, F.max_pool3d][c["n"] - 1](
        tensor(x), 2), x, values=values)


@SYMBOLIC
@settings(max_examples=examples(250), deadline=None)
@given(data=st.data())
def test_pad(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    mode = data.draw(st.sampled_from(["constant", "constant", "reflect", "replicate", "circular"]))
    x = data.draw(shapes_from([*sizes, const(3), const(4)], max_rank=5))
    amounts = data.draw(st.lists(st.integers(-3 if mode == "constant" else 0, 3).map(const), max_size=6))
    if len(amounts) % 2 and data.draw(st.integers(0, 3)):
        amounts = amounts[:-1]
    if symbolic and amounts and data.draw(st.booleans()):
        amounts[0] = data.draw(st.sampled_from(sizes))
    check(lambda x, p: pad(x, p, mode), lambda x, p: F.pad(tensor(x), p, mode=mode), x, amounts, values=values)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_interpolate(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x = data.draw(shapes_from(sizes, min_rank=2, max_rank=5))
    fitting = {3: ["linear"], 4: ["bilinear", "bicubic"], 5: ["trilinear"]}.get(len(x), [])
    mode = data.draw(st.sampled_from(["nearest", "area", "nearest-exact", *fitting, *fitting]))
    if not data.draw(st.integers(0, 5)):
        mode = data.draw(st.sampled_from(["linear", "bilinear", "bicubic", "trilinear"]))
    if len(x) == 5:
        x = tuple(s if s.const_value is not None else const(2) for s in x)  # keep 3-d volumes small
    n = max(len(x) - 2, 1)
    size = scale = None
    if data.draw(st.booleans()):
        one = st.sampled_from([*sizes, const(0)])
        size = data.draw(st.one_of(one, st.lists(one, min_size=n, max_size=n), st.lists(one, max_size=3)))
    if size is None or not data.draw(st.integers(0, 8)):
        one_f = st.sampled_from([0.5, 1.0, 1.5, 2.0, 3.0, 0.1])
        scale = data.draw(st.one_of(one_f, st.lists(one_f, min_size=n, max_size=n)))
    check(lambda x, s: interpolate(x, UNKNOWN if s is None and size is not None else s, scale, mode),
          lambda x, s: F.interpolate(tensor(x), size=s, scale_factor=scale, mode=mode), x, size, values=values)


ADAPTIVE = {("avg", 1): F.adaptive_avg_pool1d, ("avg", 2): F.adaptive_avg_pool2d, ("max", 1): F.adaptive_max_pool1d,
            ("max", 2): F.adaptive_max_pool2d}


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_adaptive_pool(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    n, kind = data.draw(st.sampled_from([1, 2])), data.draw(st.sampled_from(["avg", "max"]))
    x = data.draw(shapes_from(sizes, min_rank=max(n - 1, 0), max_rank=n + 3))
    one = st.sampled_from([*(s for s in sizes if not s.symbols & {"U0", "U1"}), const(1), const(1), const(0)])
    output = data.draw(st.one_of(one, st.lists(st.one_of(one, st.none()) if n == 2 else one, min_size=n,
                                                  max_size=n), st.lists(one, max_size=3)))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values, at=0)
    op = ADAPTIVE[kind, n]
    check(lambda x, o: adaptive_pool_nd(x, o, n=n, kind=kind), lambda x, o: op(tensor(x), o), x, output,
          values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_unfold_and_fold(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    small = st.integers(1, 3)
    kernel = data.draw(per_dim(2, st.integers(0, 3)))
    stride, dilation = data.draw(per_dim(2, small)), data.draw(per_dim(2, small))
    padding = data.draw(per_dim(2, st.integers(0, 2)))
    x = data.draw(shapes_from([*sizes, const(4), const(5)], min_rank=2, max_rank=5))
    check(lambda x: unfold_patches(x, kernel, dilation, padding, stride),
          lambda x: F.unfold(tensor(x), kernel, dilation, padding, stride), x, values=values)
    out = data.draw(st.lists(st.sampled_from([*sizes, const(4), const(5)]), min_size=2, max_size=2))
    k = [data.draw(small), data.draw(small)]
    s_, d_, p_ = [data.draw(small)] * 2, [data.draw(small)] * 2, [data.draw(st.integers(0, 1))] * 2
    blocks = const(1)
    for o, kk, ss, dd, pp in zip(out, k, s_, d_, p_):
        blocks = blocks * conv_output_size(o, const(kk), ss, pp, dd)
    channels = data.draw(st.sampled_from(sizes)) * k[0] * k[1]
    cols = data.draw(st.one_of(st.just((channels, blocks)), st.just((data.draw(st.sampled_from(sizes)), channels,
                                                                      blocks)), shapes_from(sizes, max_rank=4)))
    check(lambda c, o: fold_patches(c, o, k, d_, p_, s_), lambda c, o: F.fold(tensor(c), o, k, d_, p_, s_),
          cols, out, values=values)


@SYMBOLIC
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_grid_sample_and_affine_grid(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    n = data.draw(st.sampled_from([2, 3]))
    x = data.draw(shapes_from(sizes, min_rank=n + 2, max_rank=n + 2))
    grid = (x[0], *data.draw(shapes_from(sizes, min_rank=n, max_rank=n)), const(n))
    if not data.draw(st.integers(0, 3)):
        grid = data.draw(shapes_from([*sizes, const(2)], min_rank=3, max_rank=5))
    check(grid_sample, lambda x, g: F.grid_sample(tensor(x), tensor(g), align_corners=False), x, grid,
          values=values)
    size = [x[0], x[1], *data.draw(shapes_from(sizes, min_rank=n, max_rank=n))]
    theta = (x[0], const(n), const(n + 1)) if data.draw(st.integers(0, 3)) else data.draw(shapes_from(sizes))
    check(affine_grid, lambda t, s: F.affine_grid(tensor(t), s, align_corners=False), theta, size, values=values)


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_depthwise_conv_with_a_size_for_groups(symbolic: bool, data: st.DataObject) -> None:
    """`nn.Conv1d(c, c, k, groups=c)` with `c` a size: the weight has `c // c`, 1, channel per group."""
    sizes, values = draw_case(data, symbolic)
    known = [s for s in sizes if not s.symbols & {"U0", "U1"}]
    groups = data.draw(st.sampled_from([*(s for s in known if s.const_value != 0), *(s + 1 for s in known)]))
    channels = data.draw(st.sampled_from([groups, groups, *known]))
    x = (data.draw(st.sampled_from([const(1), const(2)])), channels, const(5))
    weight = (groups, groups // groups, const(3))
    check(lambda x, w, g: conv_nd(x, w, None, groups=g, n=1),
          lambda x, w, g: F.conv1d(tensor(x), tensor(w), groups=g), x, weight, groups, values=values)


def test_sizes_simplify() -> None:
    h = parse("H")
    x = shape("B", 3, "2*H", "2*W")
    # a stride-2 conv with kernel 3 and padding 1 halves 2*H exactly
    assert conv_nd(x, shape(16, 3, 3, 3), stride=2, padding=1) == shape("B", 16, "H", "W")
    assert conv_nd(shape("B", 3, "H", "W"), shape(16, 3, 3, 3), padding="same") == shape("B", 16, "H", "W")
    assert conv_nd(shape("B", 3, "H", "W"), shape(16, 3, 3, 3), padding=1) == shape("B", 16, "H", "W")
    assert conv_nd(shape("B", 3, "H", "W"), shape(16, 3, 3, 3)) == shape("B", 16, "H-2", "W-2")
    assert pool_nd(shape("B", 8, "H", "W"), 2) == shape("B", 8, "H//2", "W//2")
    assert pool_nd(pool_nd(shape("B", 8, "H", "W"), 2), 2) == shape("B", 8, "H//4", "W//4")
    assert pool_nd(shape("B", 8, "H", "W"), 2, ceil_mode=True) == shape("B", 8, "(H+1)//2", "(W+1)//2")
    assert pool_nd(shape("B", 8, "H", "W"), 3, stride=3, padding=1, ceil_mode=True) == shape("B", 8, None, None)
    assert pool_nd(shape("B", 8, "H", "W"), (parse("H"), parse("W"))) == shape("B", 8, 1, 1)  # a global pool
    assert conv_transpose_nd(shape("B", 4, "H", "W"), shape(4, 2, 4, 4), stride=2, padding=1) == \
        shape("B", 2, "2*H", "2*W")
    assert conv_transpose_nd(shape(Variadic("N"), 4, "H"), shape(4, 2, 3), n=1) == shape(Variadic("N"), 2, "H+2")
    assert interpolate(shape("B", 3, "H", "W"), scale_factor=2.0) == shape("B", 3, "2*H", "2*W")
    assert interpolate(shape("B", 3, "H", "W"), scale_factor=0.5) == shape("B", 3, "H//2", "W//2")  # floor at every H
    # `(3*H)//2` reads `3*(H//2)` (H taken even): 6 at H = 5, where torch gives 7
    assert interpolate(shape("B", 3, "H", "W"), scale_factor=1.5) == shape("B", 3, None, None)
    assert interpolate(shape("B", 3, "4*H", "W"), scale_factor=0.75) == shape("B", 3, "3*H", None)
    assert interpolate(shape("B", 3, "H", "W"), scale_factor=0.3) == shape("B", 3, None, None)  # 0.3 is inexact
    assert pad(shape("B", "T"), [1, 2]) == shape("B", "T+3")
    assert h == parse("H")


def test_messages() -> None:
    with pytest.raises(ShapeRuleError, match=r"the input has 4 channels .* expects 3"):
        conv_nd(shape("B", 4, "H", "W"), shape(16, 3, 3, 3))
    with pytest.raises(ShapeRuleError, match=r"avg_pool1d: spatial dim 0 of the input \(T, .*\) is shorter than the pooling window \(T \+ 1\)"):
        pool_nd(shape(1, 3, "T"), parse("T+1"), n=1, kind="avg")
    with pytest.raises(ShapeRuleError, match=r"shorter than the pooling window \(2\*T \+ 1\)"):
        pool_nd(shape(1, 3, "T"), parse("2*T+1"), 1, n=1, kind="avg")
    with pytest.raises(ShapeRuleError, match=r"smaller than the dilated kernel"):
        conv_nd(shape("B", 3, 2, 2), shape(16, 3, 3, 3))
    with pytest.raises(ShapeRuleError, match=r"padding 'same' is not supported|padding='same'"):
        conv_nd(shape("B", 3, "H", "W"), shape(16, 3, 3, 3), stride=2, padding="same")
