"""Soundness of the einops rules against einops 0.8 on LibTorch (spec §6, §7).

Patterns are drawn from the shapes they describe: the left side groups some named axes
(now and then with `1`, `()`, anonymous numbers and an ellipsis), the input shape is
what the left side says (sometimes with a dim or the number of dims wrong), the right
side regroups the axes as the operation allows (sometimes not), and keyword lengths
name some axes (sometimes wrongly).  A few patterns are random characters, for the
parser.  einops is run on real tensors; `check` compares accept/reject and shapes.
"""

from __future__ import annotations

from typing import Any

import einops
import pytest
import torch
from einops.layers.torch import Rearrange, Reduce
from hypothesis import given, settings
from hypothesis import strategies as st
from test_shape_rules_core import check, draw_case, examples, shape, tensor, with_variadic

from tyr._symbolic import Expr, const, parse
from tyr.shape_rules import ShapeRuleError, Variadic
from tyr.shape_rules import einops as rules

SYMBOLIC = pytest.mark.parametrize("symbolic", [False, True], ids=["concrete", "symbolic"])
NAMES = ("a", "b", "c", "d", "e", "f", "g")
OPERATIONS = ("rearrange", "repeat", *rules.REDUCTIONS)
# Pieces of patterns, for the parser: most are valid alone, few together.
TOKENS = ("a", "b", "c", "(", ")", "...", "1", "2", "0", "01", "->", "->", " ", " ", "_", "a_", "_b", "x1", "-", ".", "*")


def _real(op: Any) -> Any:
    """einops' call, with its stray exceptions (a division by zero, a layer's missing recipe) as rejections."""

    def run(*args: Any) -> Any:
        try:
            return op(*args)
        except (ZeroDivisionError, KeyError) as err:
            raise RuntimeError(f"einops: {err!r}") from None

    return run


def _product(sizes: list[Expr]) -> Expr:
    total = const(1)
    for s in sizes:
        total = total * s
    return total


def _regroup(draw: st.DrawFn, items: list[str]) -> list[list[str]]:
    groups: list[list[str]] = []
    while items:
        take = draw(st.sampled_from([1, 1, 1, 2, 2, 3]))
        groups.append(items[:take])
        items = items[take:]
    return groups


def _text(draw: st.DrawFn, groups: list[list[str]]) -> str:
    """A side of a pattern: single axes bare (sometimes parenthesised), groups in parentheses."""
    parts = []
    for g in groups:
        if len(g) == 1 and draw(st.integers(0, 5)):
            parts.append(g[0])
        else:
            parts.append("(" + " ".join(g) + ")")
    return draw(st.sampled_from([" ", "  "])).join(parts)


@st.composite
def transform_case(
    draw: st.DrawFn, sizes: list[Expr], operation: str
) -> tuple[tuple[Expr, ...], str, dict[str, Expr]]:
    """An input shape, a pattern and keyword lengths for rearrange / repeat / a reduction."""
    if not draw(st.integers(0, 15)):
        pattern = "".join(draw(st.lists(st.sampled_from(TOKENS), max_size=8)))
        x = tuple(draw(st.lists(st.sampled_from(sizes), max_size=3)))
        return x, pattern, {}
    names = list(draw(st.permutations(NAMES)))
    n_left = draw(st.integers(0, 4))
    left_names, spare = names[:n_left], names[n_left:]
    axis_size = {n: draw(st.sampled_from(sizes)) for n in left_names}
    # the left side: groups of the named axes, now and then a `1`/`()`, a number, an ellipsis
    left = _regroup(draw, list(left_names))
    anonymous: dict[str, int] = {}
    if operation != "repeat" and left and not draw(st.integers(0, 4 if operation != "rearrange" else 10)):
        value = draw(st.sampled_from([2, 3]))
        token = str(value)
        draw(st.sampled_from(left)).insert(0, token)
        anonymous[token] = value
    if not draw(st.integers(0, 6)):
        left.insert(draw(st.integers(0, len(left))), [draw(st.sampled_from(["1", "()"]))])
    has_ellipsis = draw(st.integers(0, 2)) == 0
    at = draw(st.integers(0, len(left)))
    ellipsis_sizes = list(draw(st.lists(st.sampled_from(sizes), max_size=3))) if has_ellipsis else []
    x: list[Expr] = []
    for g in left:
        x.append(_product([axis_size[a] if a in axis_size else const(anonymous.get(a, 1)) for a in g]))
    x[at:at] = ellipsis_sizes
    if not draw(st.integers(0, 5)) and x:
        x[draw(st.integers(0, len(x) - 1))] = draw(st.sampled_from(sizes))
    if not draw(st.integers(0, 12)):
        if x and draw(st.booleans()):
            del x[draw(st.integers(0, len(x) - 1))]
        else:
            x.insert(draw(st.integers(0, len(x))), draw(st.sampled_from(sizes)))
    left_parts = [_text(draw, [g]) if g not in (["1"], ["()"]) else g[0] for g in left]
    if has_ellipsis:
        left_parts.insert(at, "...")
    # the right side
    lengths: dict[str, Expr] = {}
    if operation == "rearrange":
        right_names = list(left_names)
    elif operation == "repeat":
        new = spare[: draw(st.integers(0, 2))]
        right_names = list(left_names) + new + [str(draw(st.sampled_from([2, 3]))) for _ in range(draw(st.integers(0, 1)))]
        for n in new:
            if draw(st.integers(0, 8)):
                lengths[n] = draw(st.sampled_from(sizes))
    else:
        right_names = [n for n in left_names if draw(st.booleans())]
    right_names = list(draw(st.permutations(right_names)))
    if not draw(st.integers(0, 12)):
        if right_names and draw(st.booleans()):
            right_names.pop()
        else:
            right_names.append(spare[-1])
    keep_ellipsis = has_ellipsis and (operation == "rearrange" or operation == "repeat" or draw(st.booleans()))
    if not draw(st.integers(0, 20)):
        keep_ellipsis = not keep_ellipsis
    right = _regroup(draw, right_names)
    if keep_ellipsis:
        if right and not draw(st.integers(0, 3)):
            draw(st.sampled_from(right)).append("...")
        else:
            right.insert(draw(st.integers(0, len(right))), ["..."])
    if not draw(st.integers(0, 5)):
        right.insert(draw(st.integers(0, len(right))), [draw(st.sampled_from(["1", "()"]))])
    right_parts = [_text(draw, [g]) if g not in (["1"], ["()"]) else g[0] for g in right]
    # keyword lengths: often for axes in composed dims, now and then wrong or unused
    for g in left:
        named = [a for a in g if a in axis_size]
        if len(named) > 1 and draw(st.integers(0, 6)):
            for a in named[: len(named) - 1 if draw(st.integers(0, 4)) else len(named)]:
                lengths[a] = axis_size[a]
        elif named and not draw(st.integers(0, 5)):
            lengths[named[0]] = axis_size[named[0]]
    if lengths and not draw(st.integers(0, 6)):
        name = draw(st.sampled_from(sorted(lengths)))
        lengths[name] = draw(st.sampled_from(sizes))
    if not draw(st.integers(0, 20)):
        lengths["z"] = const(2)
    if not draw(st.integers(0, 15)):  # an axis named twice on one side, or a `1` inside parentheses
        parts = draw(st.sampled_from([left_parts, right_parts]))
        extra = draw(st.sampled_from([*left_names, "1", "(1)", "(a 1)"])) if left_names else "1"
        parts.insert(draw(st.integers(0, len(parts))), extra)
    pattern = " ".join(left_parts) + draw(st.sampled_from([" -> ", "->", " ->"])) + " ".join(right_parts)
    return tuple(x), pattern, lengths


def _transform_rule(operation: str, layer: bool = False) -> Any:
    if operation == "rearrange":
        return lambda x, p, n: rules.rearrange(x, p, n, layer=layer)
    if operation == "repeat":
        return lambda x, p, n: rules.repeat(x, p, n, layer=layer)
    return lambda x, p, n: rules.reduce(x, p, operation, n, layer=layer)


def _transform_op(operation: str) -> Any:
    if operation == "rearrange":
        return _real(lambda x, p, n: einops.rearrange(tensor(x), p, **n))
    if operation == "repeat":
        return _real(lambda x, p, n: einops.repeat(tensor(x), p, **n))
    return _real(lambda x, p, n: einops.reduce(tensor(x), p, operation, **n))


def _layer_op(operation: str) -> Any:
    if operation == "rearrange":
        return _real(lambda x, p, n: Rearrange(p, **n)(tensor(x)))
    return _real(lambda x, p, n: Reduce(p, operation, **n)(tensor(x)))


@SYMBOLIC
@pytest.mark.parametrize("operation", OPERATIONS)
@settings(max_examples=examples(120), deadline=None)
@given(data=st.data())
def test_transform(symbolic: bool, operation: str, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, pattern, lengths = data.draw(transform_case(sizes, operation))
    check(_transform_rule(operation), _transform_op(operation), x, pattern, lengths, values=values)


@pytest.mark.parametrize("operation", ["rearrange", "repeat", "sum", "max"])
@settings(max_examples=examples(80), deadline=None)
@given(data=st.data())
def test_transform_with_a_variadic(operation: str, data: st.DataObject) -> None:
    sizes, values = draw_case(data, data.draw(st.booleans()))
    x, pattern, lengths = data.draw(transform_case(sizes, operation))
    x = with_variadic(data, x, values)
    check(_transform_rule(operation), _transform_op(operation), x, pattern, lengths, values=values)


@SYMBOLIC
@pytest.mark.parametrize("operation", ["rearrange", "repeat", "mean", "min", "any"])
@settings(max_examples=examples(60), deadline=None)
@given(data=st.data())
def test_layers(symbolic: bool, operation: str, data: st.DataObject) -> None:
    """`Rearrange(pattern, **lengths)(x)` and `Reduce(pattern, reduction, **lengths)(x)`."""
    sizes, values = draw_case(data, symbolic)
    x, pattern, lengths = data.draw(transform_case(sizes, operation))
    check(_transform_rule(operation, layer=True), _layer_op(operation), x, pattern, lengths, values=values)


def test_layer_checks_its_pattern_when_built() -> None:
    for pattern, operation, names in [
        ("b c -> b", "rearrange", ()),
        ("b (h w) -> b h w", "rearrange", ()),
        ("b c -> b c", "rearrange", ("h",)),
        ("b c -> b c d", "repeat", ()),
        ("b c -> b c", "avg", ()),
        ("b c -> b (c", "sum", ()),
    ]:
        with pytest.raises(ShapeRuleError):
            rules.check_layer("Rearrange", pattern, operation, names)
        with pytest.raises(RuntimeError):  # EinopsError
            Reduce(pattern, operation, **{n: 2 for n in names})
    rules.check_layer("Rearrange", "b c (h p) -> b c h p", "rearrange", ("p",))
    with pytest.raises(ShapeRuleError, match="at most 7 dims"):
        rules.rearrange(shape(*[2] * 9), "a ... -> ... a", {}, layer=True)


# -- einsum ---------------------------------------------------------------------------------------


@st.composite
def einsum_case(draw: st.DrawFn, sizes: list[Expr]) -> tuple[str, list[tuple[Expr, ...]]]:
    names = list(draw(st.permutations(NAMES + ("_", "hd", "x1"))))[: draw(st.integers(1, 5))]
    axis_size = {n: draw(st.sampled_from(sizes)) for n in names}
    operands: list[list[str]] = []
    shapes: list[tuple[Expr, ...]] = []
    ellipsis_sizes = list(draw(st.lists(st.sampled_from(sizes), max_size=2)))
    for _ in range(draw(st.integers(1, 3))):
        axes = draw(st.lists(st.sampled_from(names), max_size=4))
        dims = [const(1) if not draw(st.integers(0, 8)) else axis_size[a] for a in axes]
        if draw(st.integers(0, 3)) == 0:
            at = draw(st.integers(0, len(axes)))
            axes.insert(at, "...")
            dims[at:at] = ellipsis_sizes[len(ellipsis_sizes) - draw(st.integers(0, len(ellipsis_sizes))) :]
        if not draw(st.integers(0, 8)) and dims:
            dims[draw(st.integers(0, len(dims) - 1))] = draw(st.sampled_from(sizes))
        operands.append(axes)
        shapes.append(tuple(dims))
    used = sorted({a for axes in operands for a in axes if a != "..."})
    out = list(draw(st.permutations(used)))[: draw(st.integers(0, len(used)))]
    if any("..." in axes for axes in operands) and draw(st.booleans()):
        out.insert(draw(st.integers(0, len(out))), "...")
    if not draw(st.integers(0, 10)):
        out.append(draw(st.sampled_from(["z", "(a b)", "()", "1", "2", "a"])))
    if not draw(st.integers(0, 10)):
        operands[0].append(draw(st.sampled_from(["(a b)", "()", "1", "2", "(...)"])))
    pattern = ", ".join(" ".join(axes) for axes in operands) + draw(st.sampled_from([" -> ", "->", " , "])) + " ".join(out)
    return pattern, shapes


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_einsum(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    pattern, shapes = data.draw(einsum_case(sizes))
    check(
        lambda p, s: rules.einsum(p, s),
        lambda p, s: einops.einsum(*(tensor(x) for x in s), p),
        pattern,
        shapes,
        values=values,
    )


# -- pack / unpack --------------------------------------------------------------------------------


@st.composite
def pack_case(draw: st.DrawFn, sizes: list[Expr]) -> tuple[list[tuple[Expr, ...]], str]:
    before = [draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(0, 2)))]
    after = [draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(0, 2)))]
    shapes = []
    for _ in range(draw(st.integers(1, 3))):
        middle = draw(st.lists(st.sampled_from(sizes), max_size=2))
        s = [*before, *middle, *after]
        if not draw(st.integers(0, 8)) and s:
            s[draw(st.integers(0, len(s) - 1))] = draw(st.sampled_from(sizes))
        shapes.append(tuple(s))
    axes = [*NAMES[: len(before)], "*", *NAMES[len(before) : len(before) + len(after)]]
    if not draw(st.integers(0, 12)):
        axes = draw(st.lists(st.sampled_from(["a", "b", "*", "_", "c_", "1"]), max_size=4))
    return shapes, draw(st.sampled_from([" ", "  "])).join(axes)


def _pack_rule(shapes: list[Any], pattern: str) -> Any:
    out, packed = rules.pack(shapes, pattern)
    return None if out is None else (out, *packed)


def _pack_op(shapes: list[Any], pattern: str) -> Any:
    packed, ps = einops.pack([tensor(s) for s in shapes], pattern)
    return (packed, *(torch.empty(tuple(p)) for p in ps))


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_pack(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    shapes, pattern = data.draw(pack_case(sizes))
    if data.draw(st.integers(0, 3)) == 0:
        i = data.draw(st.integers(0, len(shapes) - 1))
        shapes[i] = with_variadic(data, shapes[i], values)
    check(_pack_rule, _real(_pack_op), shapes, pattern, values=values)


@st.composite
def unpack_case(draw: st.DrawFn, sizes: list[Expr]) -> tuple[tuple[Expr, ...], list[tuple[Expr, ...]], str]:
    before = [draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(0, 2)))]
    after = [draw(st.sampled_from(sizes)) for _ in range(draw(st.integers(0, 2)))]
    pieces = [tuple(draw(st.lists(st.sampled_from(sizes), max_size=2))) for _ in range(draw(st.integers(0, 3)))]
    axis = const(0)
    for p in pieces:
        axis = axis + _product(list(p))
    if not draw(st.integers(0, 5)):
        axis = draw(st.sampled_from(sizes))
    if pieces and not draw(st.integers(0, 3)):
        i = draw(st.integers(0, len(pieces) - 1))
        p = list(pieces[i])
        p.insert(draw(st.integers(0, len(p))), const(-1))
        if p and not draw(st.integers(0, 3)):
            p[draw(st.integers(0, len(p) - 1))] = const(draw(st.sampled_from([-1, -2])))
        pieces[i] = tuple(p)
        if not draw(st.integers(0, 5)):
            j = draw(st.integers(0, len(pieces) - 1))
            pieces[j] = (*pieces[j], const(-1))
    x = [*before, axis, *after]
    if not draw(st.integers(0, 10)):
        x.append(draw(st.sampled_from(sizes)))
    axes = [*NAMES[: len(before)], "*", *NAMES[len(before) : len(before) + len(after)]]
    return tuple(x), pieces, " ".join(axes)


def _unpack_rule(x: Any, pieces: list[Any], pattern: str) -> Any:
    out = rules.unpack(x, pieces, pattern)
    return None if out is None or any(o is None for o in out) else tuple(out)


def _unpack_op(x: Any, pieces: list[Any], pattern: str) -> Any:
    return einops.unpack(tensor(x), [tuple(p) for p in pieces], pattern)


@SYMBOLIC
@settings(max_examples=examples(200), deadline=None)
@given(data=st.data())
def test_unpack(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, pieces, pattern = data.draw(unpack_case(sizes))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    check(_unpack_rule, _real(_unpack_op), x, pieces, pattern, values=values)


# -- examples --------------------------------------------------------------------------------------


def test_examples() -> None:
    h = parse("H")
    # multi-head split and merge
    assert rules.rearrange(shape("B", "N", "D"), "b n (h d) -> b h n d", {"h": 8}) == shape("B", 8, "N", "D//8")
    assert rules.rearrange(shape("B", "N", "D"), "b n (h d) -> b h n d", {"h": h}) == shape("B", "H", "N", "D//H")
    assert rules.rearrange(shape("B", 8, "N", 64), "b h n d -> b n (h d)", {}) == shape("B", "N", 512)
    assert rules.rearrange(shape("B", "N", "D"), "b n (h d) -> b h n d", {"h": None}) == shape("B", None, "N", None)
    # ViT patches
    p = parse("P")
    assert rules.rearrange(
        shape("B", 3, "H", "W"), "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", {"p1": p, "p2": p}
    ) == shape("B", "(H//P)*(W//P)", "3*P*P")
    assert rules.repeat(shape(1, 1, "D"), "1 1 d -> b 1 d", {"b": parse("B")}) == shape("B", 1, "D")
    assert rules.repeat(None, "() n d -> b n d", {"b": parse("B")}) == shape("B", None, None)
    assert rules.reduce(shape("B", "N", "D"), "b n d -> b d", "mean", {}) == shape("B", "D")
    assert rules.reduce(shape("B", "C", "H", "W"), "b c (h 2) (w 2) -> b c h w", "max", {}) == shape(
        "B", "C", "H//2", "W//2"
    )
    assert rules.reduce(shape("B", "C", "H", "W"), "b c ... -> b c", "mean", {}) == shape("B", "C")
    assert rules.reduce(shape("B", "C", "H", "W"), "b c h w -> b c", None, {}) is None  # a callable
    assert rules.repeat(shape("H", "W"), "h w -> (h 2) (w 2)", {}) == shape("2*H", "2*W")
    # an ellipsis over a Variadic
    batch = Variadic("Batch")
    assert rules.rearrange(shape(batch, "T", "D"), "... t (h d) -> ... h t d", {"h": 4}) == shape(
        batch, 4, "T", "D//4"
    )
    assert rules.rearrange(shape(batch, "D"), "... d -> (...) d", {}) == shape(None, "D")
    assert rules.rearrange(shape(batch, "D"), "a b d -> b a d", {}) == shape(None, None, "D")
    assert rules.rearrange(shape(batch, "D"), "a ... -> ... a", {}) is None
    # einsum, pack, unpack
    assert rules.einsum("b h i d, b h j d -> b h i j", [shape("B", "H", "N", "D"), shape("B", "H", "M", "D")]) == shape(
        "B", "H", "N", "M"
    )
    packed, ps = rules.pack([shape("B", "D"), shape("B", "N", "D")], "b * d")
    assert packed == shape("B", "N + 1", "D") and ps == [(), shape("N")]
    assert rules.unpack(shape("B", "N + 1", "D"), ps, "b * d") == [shape("B", "D"), shape("B", "N", "D")]
    assert rules.unpack(shape("B", "N + 1", "D"), [shape(1), shape(-1)], "b * d") == [
        shape("B", 1, "D"),
        shape("B", "N", "D"),
    ]
    assert rules.unpack(shape("B", "N", "D"), None, "b * d") is None


def test_errors() -> None:
    cases = [
        (shape("B", "N", "D"), "b n d -> b d", "rearrange", {}, "one side only"),
        (shape("B", "N", "D"), "b n -> b n", "rearrange", {}, "expects 2 dims"),
        (shape("B", 10), "b (h d) -> b h d", "rearrange", {"h": 3}, "not a multiple of 3"),
        (shape("B", "D"), "b d -> b d", "rearrange", {"d": 3}, "multiply to 3"),
        (shape("B", "D"), "b (h d) -> b h d", "rearrange", {}, "cannot both be inferred"),
        (shape("B", "D"), "b d -> b d", "rearrange", {"h": 3}, "does not use it"),
        (shape("B", "D"), "b d -> b d c", "repeat", {}, "give the lengths of the new axes c"),
        (shape("B", "D"), "b d -> b d c", "sum", {}, "cannot add axes"),
        (shape("B", "D"), "b d -> b", "avg", {}, "unknown reduction"),
        (shape("B", 0), "b d -> b", "max", {}, "size 0"),
        (shape("B", "D"), "b (d) -> b ((d))", "rearrange", {}, "cannot nest"),
        (shape("B", "D"), "b d -> b d -> b", "rearrange", {}, "exactly one '->'"),
    ]
    for x, pattern, operation, lengths, message in cases:
        with pytest.raises(ShapeRuleError, match=message):
            rules.reduce(x, pattern, operation, lengths)
    with pytest.raises(ShapeRuleError, match="needs '->'"):
        rules.einsum("b d, d e", [shape("B", "D"), shape("D", "E")])
    with pytest.raises(ShapeRuleError, match="einsum: axis d is D at dimension 1 of operand 0 but E"):
        rules.einsum("b d, d f -> b f", [shape("B", "D"), shape("E", "F")])
    with pytest.raises(ShapeRuleError, match="add up to"):
        rules.unpack(shape("B", "N", "D"), [shape(1), shape("N")], "b * d")
    with pytest.raises(ShapeRuleError, match="no '\\*'"):
        rules.pack([shape("B", "D")], "b d")
    assert rules.rearrange(shape(4), "(a b) -> a b", {"a": -2}) is None  # a negative length: unknown


# -- parse_shape ----------------------------------------------------------------------------------


@st.composite
def parse_shape_case(draw: st.DrawFn, sizes: list[Expr]) -> tuple[tuple[Expr, ...], str]:
    x = tuple(draw(st.lists(st.sampled_from(sizes), max_size=4)))
    tokens = [draw(st.sampled_from(["a", "b", "c", "_", "_", "1", "()", "2", "(a)", "(a b)"])) for _ in x]
    if not draw(st.integers(0, 3)):
        tokens.insert(draw(st.integers(0, len(tokens))), draw(st.sampled_from(["...", "...", "(...)"])))
    if not draw(st.integers(0, 8)):
        tokens.append(draw(st.sampled_from(["d", "_"])))
    if tokens and not draw(st.integers(0, 8)):
        tokens.pop()
    return x, " ".join(tokens)


def _parse_shape_rule(x: Any, pattern: str) -> Any:
    out = rules.parse_shape(x, pattern)
    return None if out is None else tuple(out.values())


def _parse_shape_op(x: Any, pattern: str) -> Any:
    return torch.empty(tuple(einops.parse_shape(tensor(x), pattern).values()))


@SYMBOLIC
@settings(max_examples=examples(150), deadline=None)
@given(data=st.data())
def test_parse_shape(symbolic: bool, data: st.DataObject) -> None:
    sizes, values = draw_case(data, symbolic)
    x, pattern = data.draw(parse_shape_case(sizes))
    if data.draw(st.integers(0, 4)) == 0:
        x = with_variadic(data, x, values)
    check(_parse_shape_rule, _real(_parse_shape_op), x, pattern, values=values)


def test_parse_shape_names() -> None:
    assert rules.parse_shape(shape("B", "C", "H", "W"), "b _ h w") == {"b": parse("B"), "h": parse("H"), "w": parse("W")}
    assert rules.parse_shape(shape(Variadic("Batch"), "H", "W"), "... h w") == {"h": parse("H"), "w": parse("W")}
    with pytest.raises(ShapeRuleError, match="composed"):
        rules.parse_shape(shape("B", "D"), "b (h d)")
