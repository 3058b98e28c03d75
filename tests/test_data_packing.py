"""Packing documents into rows: stream windows and best-fit BOS-aligned rows."""

from __future__ import annotations

from random import Random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tyr.data.packing import best_fit, bos_row_count, bos_rows, stream_row_count, stream_rows, with_bos

BOS = 99


def docs_from(lengths: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Documents whose tokens are unique: document i holds i*1000, i*1000+1, ..."""
    ids = np.concatenate([np.arange(n) + 1000 * i for i, n in enumerate(lengths)] + [np.zeros(0, np.int64)])
    return ids.astype(np.int64), np.array(lengths, dtype=np.int64)


def test_with_bos_puts_bos_before_each_document_in_the_given_order() -> None:
    ids, lengths = docs_from([2, 1, 3])
    stream, starts = with_bos(ids, lengths, BOS)
    assert stream.tolist() == [BOS, 0, 1, BOS, 1000, BOS, 2000, 2001, 2002]
    assert starts.tolist() == [0, 3, 5]
    stream, starts = with_bos(ids, lengths, BOS, order=np.array([2, 0, 1]))
    assert stream.tolist() == [BOS, 2000, 2001, 2002, BOS, 0, 1, BOS, 1000]
    assert starts.tolist() == [0, 4, 7]


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 40), min_size=1, max_size=30), st.integers(1, 16), st.data())
def test_stream_rows_cover_every_token_once_as_a_target(
    lengths: list[int], seq_len: int, data: st.DataObject
) -> None:
    ids, lens = docs_from(lengths)
    stream, _ = with_bos(ids, lens, BOS)
    offset = data.draw(st.integers(0, seq_len - 1))
    rows = stream_rows(stream, seq_len, offset)
    assert len(rows) == stream_row_count(len(stream), seq_len, offset)
    assert rows.shape[1:] == (seq_len + 1,)
    if len(rows):
        targets = rows[:, 1:].reshape(-1)
        assert targets.tolist() == stream[offset + 1 : offset + 1 + len(targets)].tolist()
        assert len(stream) - offset - 1 - len(targets) < seq_len  # less than a row is left over


@settings(max_examples=100, deadline=None)
@given(st.lists(st.integers(2, 60), min_size=0, max_size=40), st.integers(2, 24))
def test_best_fit_fills_rows_exactly_from_document_starts(sizes: list[int], capacity: int) -> None:
    docs, takes = best_fit(sizes, capacity)
    assert len(set(docs.tolist())) == len(docs)  # each document is used at most once
    assert takes.sum() % capacity == 0
    assert all(0 < t <= sizes[d] for d, t in zip(docs.tolist(), takes.tolist(), strict=True))
    row_ends = np.cumsum(takes)
    cropped = takes < np.array(sizes, dtype=np.int64)[docs] if len(docs) else takes.astype(bool)
    assert all(row_ends[cropped] % capacity == 0)  # a cropped document always ends its row
    unused = sum(sizes) - takes.sum()
    assert unused >= 0
    if not cropped.any():
        assert unused < capacity  # without crops, only the unfilled last row is lost


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(2, 60), min_size=1, max_size=40), st.integers(2, 24), st.randoms(use_true_random=False))
def test_bos_row_count_does_not_depend_on_document_order(sizes: list[int], capacity: int, rand: Random) -> None:
    shuffled = list(sizes)
    rand.shuffle(shuffled)
    assert bos_row_count(sizes, capacity) == bos_row_count(shuffled, capacity)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(1, 50), min_size=1, max_size=30), st.integers(1, 20))
def test_bos_rows_start_with_bos_and_copy_document_prefixes(lengths: list[int], seq_len: int) -> None:
    ids, lens = docs_from(lengths)
    stream, starts = with_bos(ids, lens, BOS)
    rows = bos_rows(stream, starts, seq_len)
    assert len(rows) == bos_row_count(lens + 1, seq_len + 1)
    for row in rows.tolist():
        assert row[0] == BOS
        pieces = "".join("|" if t == BOS else "." for t in row).split("|")[1:]
        position = 1
        for piece in pieces:  # each piece after a BOS is the start of one document
            if piece:
                doc = row[position] // 1000
                assert row[position : position + len(piece)] == list(range(1000 * doc, 1000 * doc + len(piece)))
            position += len(piece) + 1


def test_a_document_longer_than_a_row_gives_its_head() -> None:
    ids, lens = docs_from([10])
    stream, starts = with_bos(ids, lens, BOS)
    assert bos_rows(stream, starts, 4).tolist() == [[BOS, 0, 1, 2, 3]]
