"""jaxtyping's shape strings: tyr's parser reads each one as jaxtyping does, and refuses what jaxtyping refuses."""

from __future__ import annotations

import itertools

import pytest
import torch
from jaxtyping import Float

from tyr._jaxtyping_dims import (
    AnonymousDim,
    FixedDim,
    JaxShapeError,
    NamedDim,
    SymbolicDim,
    VariadicDim,
    parse_dims,
)
from tyr._symbolic import parse

_ATOMS = [
    "b", "3", "_", "...", "*b", "#b", "#3", "*#b", "#*b", "_b", "*_", "?b", "b=3", "rows=n", "#rows=3",
    "n+1", "2*d", "min(a,b)", "a//2", "{n}", "(4)", "-3", "+3", "3_0",
    "a,b", "b#", "##b", "**b", "__b", "_3", "*3", "?3", "#_", "*...", "x...", "*", "#", "?",
    "a=b=c", "#n+1", "*n+1", "_n+1", "?n+1", "b=_", "_=b", "a.b", "?*b", "*?b", "#?b",
]  # fmt: skip
_CONTEXTS = ["{}", "{} c", "... {}", "*x {}", "{} {}"]


def _jaxtyping_reading(text: str) -> object:
    """What jaxtyping makes of a shape string, in the parser's terms (its own classes are private)."""
    try:
        annotation = Float[torch.Tensor, text]
    except ValueError:
        return "refused"
    out: list[object] = []
    for dim in annotation.dims:
        kind = type(dim).__name__
        if kind == "_AnonymousDim":
            out.append(AnonymousDim())
        elif kind == "_AnonymousVariadicDim":
            out.append(VariadicDim(None))
        elif kind == "_NamedDim":
            out.append(NamedDim(dim.name, dim.broadcastable))
        elif kind == "_NamedVariadicDim":
            out.append(VariadicDim(dim.name, dim.broadcastable))
        elif kind == "_FixedDim":
            out.append(FixedDim(dim.size, dim.broadcastable))
        else:
            out.append(("expression", dim.elem, dim.broadcastable))
    return tuple(out)


def _tyr_reading(text: str) -> object:
    try:
        dims = parse_dims(text)
    except JaxShapeError:
        return "refused"
    return tuple(("expression", d.text, d.broadcast) if isinstance(d, SymbolicDim) else d for d in dims)


@pytest.mark.parametrize("atom", _ATOMS)
def test_read_as_jaxtyping_reads(atom: str) -> None:
    for context in _CONTEXTS:
        text = context.format(atom, atom)
        assert _tyr_reading(text) == _jaxtyping_reading(text), text


def test_expressions_are_sizes_where_tyr_can_read_them() -> None:
    n_plus_1, twice, floor, other, argument = parse_dims("n+1 2*d a//2 min(a,b) {n}")
    assert isinstance(n_plus_1, SymbolicDim) and n_plus_1.expr == parse("n+1")
    assert isinstance(twice, SymbolicDim) and twice.expr == parse("2*d")
    assert isinstance(floor, SymbolicDim) and floor.expr == parse("a//2")
    assert isinstance(other, SymbolicDim) and other.expr is None
    assert isinstance(argument, SymbolicDim) and argument.expr is None


def test_every_pair_of_atoms() -> None:
    """Two atoms side by side: the variadic-once rule and the per-dim rules together."""
    for a, b in itertools.product(_ATOMS[:24], repeat=2):
        text = f"{a} {b}"
        assert _tyr_reading(text) == _jaxtyping_reading(text), text
