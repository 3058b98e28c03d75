"""The soundness harness every `test_shape_rules_*` file uses, and tests of `tyr.shape_rules.core`.

`check(rule, op, *args)` runs a shape rule on `args` and the real op in LibTorch on
tensors of those shapes, and asserts they agree (spec §7):

* Concrete arguments (every size a constant): torch succeeds exactly when the rule
  does, and the rule's shape is the real one.
* Symbolic arguments, with `values` for the symbols: where the rule succeeds and
  torch accepts the instance, the rule's result evaluated at `values` is the real
  shape (sizes the rule leaves unknown are skipped); where the rule raises, it also
  raises for a generic instance (every symbol a distinct large prime), so its errors
  come from distinct sizes, never from the particular values drawn.  Symbols named
  `U0`, `U1`, ... are handed to the rule as unknown sizes (`None`); a `Variadic` is
  given to torch as the dims `values[name]` (a tuple).

A tensor torch returns with a negative size (a LibTorch bug in `expand`) counts as a
rejection.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Callable, Mapping
from typing import Any

import pytest
import torch
from hypothesis import event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

from tyr._symbolic import Expr, const, division_facts, parse, product_divisions, sym
from tyr.shape_rules import ShapeRuleError, Variadic
from tyr.shape_rules.core import (
    locate,
    lower_bound,
    numel,
    provably_at_least,
    show_shape,
    wrap_dim,
)

EXAMPLES_SCALE = float(os.environ.get("TYR_SHAPE_RULES_EXAMPLES", "1"))
"""Multiplies every property test's example count (`TYR_SHAPE_RULES_EXAMPLES=20` for a long soak)."""


def examples(n: int) -> int:
    return max(1, round(n * EXAMPLES_SCALE))


REJECTED = (RuntimeError, ValueError, IndexError, AssertionError)
"""What torch raises for arguments it does not accept (`F.embedding` checks `padding_idx` with an
`assert`; NotImplementedError is a RuntimeError).  A TypeError is a bug in the test."""

Values = Mapping[str, "int | tuple[int, ...]"]

_GENERIC_PRIMES = (1_000_003, 1_000_033, 1_000_037, 1_000_039, 1_000_081, 1_000_099, 1_000_117, 1_000_121)


def shape(*dims: int | str | Expr | Variadic | None) -> tuple[Expr | Variadic | None, ...]:
    """A rule-side shape from ints, dimension strings, Exprs, Variadics and None."""
    out: list[Expr | Variadic | None] = []
    for d in dims:
        if isinstance(d, int):
            out.append(const(d))
        elif isinstance(d, str):
            out.append(parse(d))
        else:
            out.append(d)
    return tuple(out)


# -- walking argument trees ----------------------------------------------------------------------


def _map(obj: Any, on_expr: Callable[[Expr], Any], on_var: Callable[[Variadic], Any] | None = None) -> Any:
    """Rebuild tuples/lists/slices/dicts with each Expr (and Variadic, spliced if a tuple) mapped."""
    if isinstance(obj, Expr):
        return on_expr(obj)
    if isinstance(obj, tuple):
        out: list[Any] = []
        for item in obj:
            if isinstance(item, Variadic) and on_var is not None:
                out.extend(on_var(item))
            else:
                out.append(_map(item, on_expr, on_var))
        return tuple(out)
    if isinstance(obj, list):
        return [_map(item, on_expr, on_var) for item in obj]
    if isinstance(obj, dict):
        return {k: _map(v, on_expr, on_var) for k, v in obj.items()}
    if isinstance(obj, slice):
        return slice(*(_map(x, on_expr, on_var) for x in (obj.start, obj.stop, obj.step)))
    return obj


def symbols_in(obj: Any) -> set[str]:
    names: set[str] = set()

    def note_expr(e: Expr) -> Expr:
        names.update(e.symbols)
        return e

    def note_var(v: Variadic) -> tuple[Variadic]:
        names.add(v.name)
        return (v,)

    _map(obj, note_expr, note_var)
    return names


def lower(obj: Any, values: Values) -> Any:
    """Arguments as torch takes them: every Expr evaluated to an int, every Variadic spliced in."""

    def value(e: Expr) -> int:
        got = e.evaluate({k: v for k, v in values.items() if isinstance(v, int)})
        assert got is not None, f"no value for {e}"
        return got

    def dims(v: Variadic) -> tuple[int, ...]:
        got = values[v.name]
        assert isinstance(got, tuple)
        return got

    return _map(obj, value, dims)


def instantiate(obj: Any, values: Values) -> Any:
    """Arguments as a rule takes them, with every symbol and Variadic replaced by constants."""
    ints = {k: v for k, v in values.items() if isinstance(v, int)}

    def dims(v: Variadic) -> tuple[Expr, ...]:
        got = values[v.name]
        assert isinstance(got, tuple)
        return tuple(const(x) for x in got)

    return _map(obj, lambda e: e.substitute(ints), dims)


def hide_unknowns(obj: Any) -> Any:
    """Sizes that are exactly a symbol `U<n>` become None: the rule sees an unknown size."""
    return _map(obj, lambda e: None if (e.symbol_name or "").startswith("U") else e)


def generic_values(obj: Any, values: Values) -> dict[str, int | tuple[int, ...]]:
    """Distinct large primes for the symbols; each Variadic keeps its length with fresh large sizes."""
    out: dict[str, int | tuple[int, ...]] = {}
    primes = iter(_GENERIC_PRIMES)
    for name in sorted(symbols_in(obj)):
        v = values.get(name, 0)
        if isinstance(v, tuple):
            out[name] = tuple(2_000_003 + 2 * i for i in range(len(v)))
        else:
            out[name] = next(primes)
    return out


# -- running both sides ---------------------------------------------------------------------------


def run_torch(op: Callable[..., Any], args: tuple[Any, ...], warns: tuple[str, ...]) -> Any:
    """The op's result, or the exception torch rejected the arguments with.

    Warnings are recorded, not raised: each must match one of the `warns` patterns the
    test expects for this op (pytest turns any other into an error, as usual)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            out = op(*args)
        except REJECTED as err:
            out = err
    for w in caught:
        message = str(w.message)
        if not any(re.search(p, message) for p in warns):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if not isinstance(out, BaseException) and _has_negative_size(out):
        # LibTorch bug: `torch.zeros(()).expand(0, -1)` "succeeds" with shape (0, -1).  No tensor
        # has a negative size, so the rule is right to reject these arguments.
        return RuntimeError(f"torch built a tensor with a negative size: {torch_shape(out)}")
    return out


def _has_negative_size(out: Any) -> bool:
    if isinstance(out, torch.Tensor):
        return any(d < 0 for d in out.shape)
    return isinstance(out, (tuple, list)) and any(map(_has_negative_size, out))


def torch_shape(out: Any) -> Any:
    """The shape of a tensor, or a tuple of the shapes of a tuple of tensors."""
    if isinstance(out, torch.Tensor):
        return tuple(out.shape)
    if isinstance(out, (tuple, list)):
        return tuple(torch_shape(x) for x in out)
    raise TypeError(f"not a tensor result: {out!r}")


def rule_shape(out: Any, values: Values) -> Any:
    """A rule's result evaluated at `values`: ints, with None for unknown sizes."""
    if out is None:
        return None
    if isinstance(out, tuple) and out and isinstance(out[0], tuple):
        return tuple(rule_shape(x, values) for x in out)
    ints = {k: v for k, v in values.items() if isinstance(v, int)}
    dims: list[int | None] = []
    for item in out:
        if isinstance(item, Variadic):
            got = values[item.name]
            assert isinstance(got, tuple)
            dims.extend(got)
        elif item is None:
            dims.append(None)
        else:
            dims.append(item.evaluate(ints))
    return tuple(dims)


def _matches(expected: Any, got: Any) -> bool:
    """`got` (a rule's evaluated result, None where unknown) is consistent with torch's shape."""
    if got is None:
        return True
    if isinstance(expected, tuple) and expected and isinstance(expected[0], tuple):
        return isinstance(got, tuple) and len(got) == len(expected) and all(map(_matches, expected, got))
    return len(expected) == len(got) and all(g is None or g == e for e, g in zip(expected, got))


def check(
    rule: Callable[..., Any],
    op: Callable[..., Any],
    *args: Any,
    values: Values | None = None,
    warns: tuple[str, ...] = (),
    may_give_up: bool = False,
    told_less: bool = False,
) -> None:
    """Assert the rule agrees with torch on `args` (see the module docstring).

    `may_give_up`: the rule may answer None (an unknown shape), or leave sizes unknown, even
    for constant shapes, where torch's verdict or result depends on more than shapes (memory
    layout, kernel choice, values).  `told_less`: the rule is told less than torch sees (`rule`
    hides an input's shape, or torch's verdict depends on values the rule cannot know, such as
    how many elements of a mask are true); then, besides giving up, it may accept what torch
    rejects, but what it rejects torch must reject and the shape it gives must be torch's."""
    may_give_up = may_give_up or told_less
    values = dict(values or {})
    real = run_torch(op, lower(args, values), warns)
    if currently_in_test_context():
        event("torch rejects" if isinstance(real, BaseException) else "torch accepts")
    rule_args = hide_unknowns(args)
    try:
        got: Any = rule(*rule_args)
    except ShapeRuleError as err:
        got = err
    symbolic = bool(symbols_in(args))
    context = f"\nrule args: {rule_args!r}\nvalues: {values}\ntorch: {real!r}\nrule: {got!r}"
    if not symbolic:
        if may_give_up and got is None:
            return
        if isinstance(real, BaseException):
            if told_less and not isinstance(got, ShapeRuleError):
                return
            assert isinstance(got, ShapeRuleError), f"torch rejects the arguments, the rule accepts them{context}"
            assert str(got).strip(), "an empty error message"
            return
        assert not isinstance(got, ShapeRuleError), f"torch accepts the arguments, the rule rejects them{context}"
        evaluated = rule_shape(got, values)
        if may_give_up:
            assert _matches(torch_shape(real), evaluated), f"wrong shape{context}"
            return
        assert _fully_known(evaluated), f"a rule on constant shapes left a size unknown{context}"
        assert evaluated == torch_shape(real), f"wrong shape{context}"
        return
    if isinstance(got, ShapeRuleError):
        generic = generic_values(args, values)
        try:
            again = rule(*hide_unknowns(instantiate(args, generic)))
        except ShapeRuleError:
            return
        raise AssertionError(f"the rule rejects symbolic arguments but accepts them at {generic}: {again}{context}")
    if isinstance(real, BaseException):
        return  # the symbolic rule may accept what some values make invalid (`H - 2` needs H >= 3)
    if not within_division_contract((args, got), values):
        if currently_in_test_context():
            event("values outside the division contract (SHAPES.md §6)")
        return
    assert _matches(torch_shape(real), rule_shape(got, values)), f"wrong shape{context}"


def within_division_contract(obj: Any, values: Values) -> bool:
    """Whether `values` make every division in `obj`'s sizes exact, as SHAPES.md §6 assumes.

    A rule's symbolic result is promised only there: `x[::2]` of a dim `B` has `B//2`
    elements for even B (torch gives `(B + 1)//2`, the same size when B is even).
    """
    ints = {k: v for k, v in values.items() if isinstance(v, int)}
    facts: list[tuple[str, Expr]] = []
    products: list[tuple[Expr, Expr]] = []

    def note(e: Expr) -> Expr:
        facts.extend(division_facts(e))
        products.extend(product_divisions(e))  # `(B*T)//2`: the product is even, not B or T
        return e

    _map(obj, note)
    for name, divisor in facts:
        d = divisor.evaluate(ints)
        value = ints.get(name)
        if d is None or value is None or d == 0 or value % d:
            return False
    for dividend, divisor in products:
        n, d = dividend.evaluate(ints), divisor.evaluate(ints)
        if n is None or not d or n % d:
            return False
    return True


def _fully_known(evaluated: Any) -> bool:
    if evaluated is None:
        return False
    return all(_fully_known(x) if isinstance(x, tuple) else x is not None for x in evaluated)


# -- strategies shared by the rule tests ------------------------------------------------------------

CONCRETE_SIZES = tuple(const(n) for n in range(6))
SYMBOLIC_SIZES = tuple(
    parse(s) for s in ("1", "2", "3", "B", "T", "B", "T", "2*B", "B+1", "B*T", "U0", "U1")
)
SYMBOL_VALUES = st.fixed_dictionaries({"B": st.integers(1, 4), "T": st.integers(1, 4), "U0": st.integers(1, 4),
                                       "U1": st.integers(1, 4)})


def palette(symbolic: bool) -> st.SearchStrategy[list[Expr]]:
    """A few sizes that the shapes of one example draw their dims from, so sizes often coincide."""
    pool = SYMBOLIC_SIZES if symbolic else CONCRETE_SIZES
    return st.lists(st.sampled_from(pool), min_size=1, max_size=3).map(lambda p: [*p, const(1)])


@st.composite
def shapes_from(draw: st.DrawFn, sizes: list[Expr], min_rank: int = 0, max_rank: int = 4) -> tuple[Expr, ...]:
    n = draw(st.integers(min_rank, max_rank))
    return tuple(draw(st.sampled_from(sizes)) for _ in range(n))


def tensor(dims: tuple[int, ...], dtype: torch.dtype = torch.float32) -> torch.Tensor:
    if dtype == torch.bool:
        return torch.zeros(dims, dtype=dtype)
    if dtype in (torch.int64, torch.int32):
        return torch.zeros(dims, dtype=dtype)
    return torch.randn(dims, dtype=dtype)


# -- tests of the harness itself and of core -------------------------------------------------------


def test_check_catches_a_wrong_rule() -> None:
    with pytest.raises(AssertionError, match="wrong shape"):
        check(lambda s: s, lambda s: tensor(s).sum(0), shape(2, 3))
    with pytest.raises(AssertionError, match="rule accepts"):
        check(lambda s: s, lambda s: tensor(s).view(7), shape(2, 3))
    with pytest.raises(AssertionError, match="rule rejects"):
        check(lambda s: (_ for _ in ()).throw(ShapeRuleError("no")), lambda s: tensor(s), shape(2))
    # A symbolic error must survive generic values: `B` against `2` is an error, `B*1` against `B` is not.
    def strict(a: Any, b: Any) -> Any:
        if a[0] != b[0]:
            raise ShapeRuleError("differ")
        return a

    check(strict, lambda a, b: tensor(a) + tensor(b), shape("B"), shape(2), values={"B": 2})
    with pytest.raises(AssertionError, match="accepts them at"):
        check(lambda a, b: strict(a, shape("T") if a[0].symbols else a), lambda a, b: tensor(a) + tensor(b),
              shape("B"), shape(2), values={"B": 2})


def _warns(s: tuple[int, ...]) -> torch.Tensor:
    # Warned every time (torch warns about `.T` of a 3-d tensor once per process only).
    warnings.warn("an unexpected warning", UserWarning, stacklevel=1)
    return tensor(s)


def test_check_rejects_unexpected_warnings() -> None:
    with pytest.raises(UserWarning, match="an unexpected warning"):
        check(lambda s: s, _warns, shape(2, 3, 4))


def test_wrap_dim() -> None:
    assert wrap_dim(-1, 3, "op") == 2
    assert wrap_dim(0, 0, "op") == 0  # a scalar takes dims 0 and -1
    with pytest.raises(ShapeRuleError, match="out of range for a 2-d tensor"):
        wrap_dim(2, 2, "op")
    with pytest.raises(ShapeRuleError, match="0-d"):
        wrap_dim(0, 0, "op", scalar_as_1d=False)


def test_locate_with_a_variadic() -> None:
    batch = Variadic("Batch")
    s = shape("N", batch, "T", "D")
    assert locate(s, 0, "op") == 0
    assert locate(s, 1, "op") is None
    assert locate(s, -1, "op") == 3
    assert locate(s, -2, "op") == 2
    assert locate(s, -3, "op") is None


def test_bounds() -> None:
    assert lower_bound(parse("2*B + 1")) == 3
    assert lower_bound(parse("B - 1")) == 0
    assert lower_bound(parse("T - B")) is None
    assert lower_bound(parse("(B+1)//2")) == 1
    assert provably_at_least(parse("T+1"), sym("T"))
    assert not provably_at_least(sym("T"), sym("B"))


def test_numel_and_show() -> None:
    assert numel(shape("B", 3, "T")) == parse("3*B*T")
    assert numel(shape("B", None)) is None
    assert numel(shape(Variadic("Batch"), 3)) is None
    assert show_shape(shape("B", None, Variadic("Batch"))) == "(B, ?, *Batch)"
    assert show_shape(shape(4)) == "(4,)"


@settings(max_examples=examples(60), deadline=None)
@given(st.data())
def test_harness_lowering_round_trips(data: st.DataObject) -> None:
    values = data.draw(SYMBOL_VALUES)
    sizes = data.draw(palette(True))
    s = data.draw(shapes_from(sizes))
    lowered = lower(s, values)
    assert lowered == tuple(e.evaluate(values) for e in s)
    assert instantiate(s, values) == tuple(const(x) for x in lowered)


def draw_case(data: st.DataObject, symbolic: bool) -> tuple[list[Expr], dict[str, int | tuple[int, ...]]]:
    """The sizes one example draws its shapes from, and values for their symbols."""
    values: dict[str, int | tuple[int, ...]] = dict(data.draw(SYMBOL_VALUES)) if symbolic else {}
    return data.draw(palette(symbolic)), values


def dim_of(data: st.DataObject, shape: tuple[object, ...]) -> int:
    """A dim index for `shape`: mostly in range (either sign), now and then just outside it."""
    n = len(shape)
    return data.draw(st.integers(-n, max(n - 1, 0)) if data.draw(st.integers(0, 4)) else st.integers(-n - 2, n + 1))


def with_variadic(
    data: st.DataObject, s: tuple[Expr | Variadic | None, ...], values: dict[str, int | tuple[int, ...]],
    name: str = "Batch", at: int | None = None,
) -> tuple[Expr | Variadic | None, ...]:
    """`s` with `*name` inserted (at a drawn position unless `at`), and values for its dims drawn once."""
    if name not in values:
        values[name] = tuple(data.draw(st.lists(st.integers(1, 3), max_size=3)))
    pos = data.draw(st.integers(0, len(s))) if at is None else at
    return (*s[:pos], Variadic(name), *s[pos:])
