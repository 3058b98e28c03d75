"""Recurrent layers: `nn.RNN`, `nn.LSTM`, `nn.GRU` (their `forward`, torch 2.13), and
`nn.utils.rnn.pad_sequence`, which batches sequences of several lengths for them.

An input is `(L, N, input_size)`, `(N, L, input_size)` with `batch_first`, or unbatched
`(L, input_size)`.  The output has `D * H_out` features per step (`D` is 2 when
bidirectional, `H_out` the hidden size, or an LSTM's `proj_size` when it has one); the final
hidden state is `(D * num_layers, N, H_out)` (no `N` unbatched; never batch-first), an LSTM's
final cell state `(D * num_layers, N, hidden_size)`.  Initial states given must have exactly
those shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from tyr._symbolic import const
from tyr.shape_rules.broadcast import broadcasts_to
from tyr.shape_rules.core import (
    MaybeShape,
    Shape,
    ShapeRuleError,
    Size,
    const_of,
    differ,
    min_rank,
    rank,
    same,
    show,
    show_shape,
    sizes,
    variadic_index,
)

Mode = Literal["RNN", "LSTM", "GRU"]


def recurrent(
    input: MaybeShape,
    states: Sequence[MaybeShape] | None = None,
    *,
    input_size: Size,
    hidden_size: Size,
    num_layers: Size = const(1),
    bidirectional: bool = False,
    batch_first: bool = False,
    proj_size: Size = const(0),
    mode: Mode = "RNN",
) -> tuple[MaybeShape, tuple[MaybeShape, ...]]:
    """`nn.RNN / nn.GRU(...)(input, h0)` and `nn.LSTM(...)(input, (h0, c0))`: `(output, (h_n,))` for an RNN
    or a GRU, `(output, (h_n, c_n))` for an LSTM.

    `states` are the initial states given (None when not given; a state's shape may be unknown).
    `proj_size` is an LSTM's (0: none).
    """
    layers = None if num_layers is None else (2 if bidirectional else 1) * num_layers
    projected = proj_size is None or proj_size.const_value != 0
    out_size = proj_size if projected else hidden_size
    count = 2 if mode == "LSTM" else 1
    if input is None or rank(input) is None:
        if input is not None and min_rank(input) > 3:
            raise ShapeRuleError(f"{mode}: expected a 2-d or 3-d input, got {show_shape(input)}")
        return None, (None,) * count
    if len(input) not in (2, 3):
        raise ShapeRuleError(f"{mode}: expected a 2-d (unbatched) or 3-d (batched) input, got {show_shape(input)}")
    dims = sizes(input)
    batched = len(dims) == 3
    batch: tuple[Size, ...] = (dims[0 if batch_first else 1],) if batched else ()
    steps = dims[1 if batched and batch_first else 0]
    if steps is not None and steps.const_value == 0:
        raise ShapeRuleError(f"{mode}: the input {show_shape(input)} has no time steps (sequence length 0)")
    if differ(dims[-1], input_size):
        raise ShapeRuleError(
            f"{mode}: the input {show_shape(input)} has {show(dims[-1])} features (its last dim) but the module's "
            f"input_size is {show(input_size)}"
        )
    expected: tuple[tuple[Size, ...], ...] = ((layers, *batch, out_size), (layers, *batch, hidden_size))[:count]
    names = ("h0", "c0")
    for state, want, name in zip(states or (), expected, names):
        _check_state(mode, name, state, want, batched)
    width = None if out_size is None else (2 if bidirectional else 1) * out_size
    steps_and_batch = (*batch, steps) if batch_first else (steps, *batch)
    return (*steps_and_batch, width), expected


def _check_state(mode: str, name: str, state: MaybeShape, want: tuple[Size, ...], batched: bool) -> None:
    if state is None:
        return
    if rank(state) is not None and len(state) != len(want) or min_rank(state) > len(want):
        kind = "a batched 3-d" if batched else "an unbatched 2-d"
        raise ShapeRuleError(f"{mode}: for {kind} input, {name} must be {len(want)}-d, not {show_shape(state)}")
    if variadic_index(state) is None:
        _check_sizes(mode, name, state, want)


def _check_sizes(mode: str, name: str, state: Shape, want: tuple[Size, ...]) -> None:
    """Each dim of a state of the right rank (no Variadic) against the shape it must have."""
    for i, (have, need) in enumerate(zip(sizes(state), want)):
        if differ(have, need):
            raise ShapeRuleError(
                f"{mode}: dim {i} of {name} {show_shape(state)} is {show(have)}, expected {show(need)} "
                f"(the expected shape is {show_shape(want)})"
            )


CellMode = Literal["RNNCell", "LSTMCell", "GRUCell"]


def recurrent_cell(
    input: MaybeShape,
    states: Sequence[MaybeShape] | None = None,
    *,
    input_size: Size,
    hidden_size: Size,
    mode: CellMode = "RNNCell",
) -> tuple[MaybeShape, ...]:
    """`nn.RNNCell / nn.GRUCell(...)(input, hx)` and `nn.LSTMCell(...)(input, (hx, cx))`: one step.

    The input is `(N, input_size)` or unbatched `(input_size,)`; each state given has the input's
    rank and is `(N, hidden_size)` or `(hidden_size,)`.  Returns the next states: `(h,)`, or an
    LSTM cell's `(h, c)`, each of that shape.
    """
    count = 2 if mode == "LSTMCell" else 1
    if input is not None and (min_rank(input) > 2 or rank(input) == 0):
        raise ShapeRuleError(f"{mode}: expected a 1-d (unbatched) or 2-d (batched) input, got {show_shape(input)}")
    if input is None or rank(input) is None:
        return (None,) * count
    dims = sizes(input)
    batch: tuple[Size, ...] = dims[:-1]
    if differ(dims[-1], input_size):
        raise ShapeRuleError(
            f"{mode}: the input {show_shape(input)} has {show(dims[-1])} features (its last dim) but the cell's "
            f"input_size is {show(input_size)}"
        )
    want = (*batch, hidden_size)
    for state, name in zip(states or (), ("hx", "cx")):
        _check_cell_state(mode, name, state, want)
    return (want,) * count


def _check_cell_state(mode: str, name: str, state: MaybeShape, want: tuple[Size, ...]) -> None:
    if state is None or variadic_index(state) is not None:
        return
    if len(state) != len(want):
        raise ShapeRuleError(
            f"{mode}: {name} {show_shape(state)} must have the input's {len(want)} dims, like {show_shape(want)}"
        )
    _check_sizes(mode, name, state, want)


def pad_sequence(
    sequences: Sequence[MaybeShape], count: Size, batch_first: bool | None = False, padding_side: str | None = "right"
) -> MaybeShape:
    """`pad_sequence(sequences, batch_first)`: the sequences, `(L_i, *)` each, padded to the longest and stacked,
    `(L, N, *)` or `(N, L, *)` with `batch_first`.

    `count` is `N`, the number of sequences (None when unknown: then `sequences` holds the one
    shape of them all, a list of one type).  torch takes `*` from the first sequence and copies
    each sequence into its slot, `(L_i, *)`: a sequence must broadcast to that without growing
    (a `(L_i, 1)` one fills its slot).  `L` is the longest length: known where every length is
    a constant or all of them are one size.  `batch_first` of unknown value (None) gives an
    unknown shape after the checks.
    """
    op = "pad_sequence"
    if padding_side is not None and padding_side not in ("left", "right"):
        raise ShapeRuleError(f"{op}: padding_side must be 'left' or 'right', not {padding_side!r}")
    if const_of(count) == 0:
        raise ShapeRuleError(f"{op}: the list of sequences is empty")
    for i, shape in enumerate(sequences):
        if shape is not None and rank(shape) == 0:
            raise ShapeRuleError(f"{op}: sequence {i} is 0-d; each needs a length dim first, (L, *)")
    first = sequences[0] if sequences else None
    if first is None or variadic_index(first) is not None:
        return None
    trailing = sizes(first)[1:]
    lengths: list[Size] = []
    for i, shape in enumerate(sequences):
        if shape is None or variadic_index(shape) is not None:
            lengths.append(None)
            continue
        length = sizes(shape)[0]
        broadcasts_to(shape, (length, *trailing), op=f"{op} (sequence {i} into its slot, the first's trailing dims)")
        lengths.append(length)
    longest = _longest(lengths)
    if batch_first is None:
        return None
    return (count, longest, *trailing) if batch_first else (longest, count, *trailing)


def _longest(lengths: Sequence[Size]) -> Size:
    """The largest of the lengths: the constant maximum, or the one size they all are; None otherwise."""
    values = [const_of(n) for n in lengths]
    if all(v is not None for v in values):
        return const(max(v for v in values if v is not None))
    if all(same(n, lengths[0]) for n in lengths):
        return lengths[0]
    return None
