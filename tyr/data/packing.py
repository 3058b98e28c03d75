"""Packing: turn the documents of one row group into rows of ``seq_len + 1`` tokens.

A row of ``C = seq_len + 1`` tokens gives one training sample: ``inputs = row[:-1]`` and
``targets = row[1:]``, both of length ``seq_len``. Every document is preceded by BOS.
Packing is done per row group, so a row group's rows depend on nothing else.

Two layouts:

``align="none"`` (the nanoGPT stream)
    The row group becomes one stream ``BOS d0 BOS d1 ...``. Starting at `offset`, rows
    are cut every ``seq_len`` tokens, each overlapping the next by one token, so every
    token after the offset is a target exactly once. Rows start anywhere in a document.
    ``(len(stream) - offset - 1) // seq_len`` rows; the leftover tail is not used.

``align="bos"`` (best-fit, every row starts with BOS)
    Documents (with their BOS, ``size = tokens + 1``) are placed whole, row by row: the
    next piece of a row is always the *largest* document that still fits in the row's
    free space. When no document fits, the *shortest* remaining one is cropped to fill
    the row exactly and its tail is dropped. So rows have no padding and each begins at
    a document's BOS; documents longer than a row only contribute their first
    ``seq_len + 1`` tokens. The last, unfilled row of a row group is dropped.
    The number of rows depends only on the multiset of sizes (ties are broken by
    position), so a loader can count rows from ``num_tokens`` alone.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np

from tyr.data.tokenizers import IntArray

Align = Literal["bos", "none"]
Tokens = np.ndarray[Any, np.dtype[np.integer[Any]]]


def with_bos(ids: Tokens, lengths: IntArray, bos: int, order: IntArray | None = None) -> tuple[Tokens, IntArray]:
    """Concatenate documents, each preceded by BOS, in the given order.

    Args:
        ids: shape (sum(lengths),), the documents' tokens one after the other.
        lengths: shape (D,), tokens per document.
        bos: the BOS id.
        order: shape (D,), a permutation of the documents (default: as stored).

    Returns:
        ``(stream, starts)``: the stream, shape (sum(lengths) + D,), same dtype as `ids`,
        and shape (D,) the position of each placed document's BOS in it.
    """
    src = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64) if len(lengths) else lengths
    if order is not None:
        lengths, src = lengths[order], src[order]
    starts = np.concatenate([[0], np.cumsum(lengths + 1)[:-1]]).astype(np.int64) if len(lengths) else lengths
    stream = np.empty(int(lengths.sum()) + len(lengths), dtype=ids.dtype)
    stream[starts] = bos
    exclusive = np.concatenate([[0], np.cumsum(lengths)[:-1]]) if len(lengths) else lengths
    q = np.arange(int(lengths.sum()))
    stream[q + np.repeat(starts + 1 - exclusive, lengths)] = ids[q + np.repeat(src - exclusive, lengths)]
    return stream, starts


def stream_row_count(stream_len: int, seq_len: int, offset: int = 0) -> int:
    """Number of ``align="none"`` rows in a stream of `stream_len` tokens."""
    return max(0, (stream_len - offset - 1) // seq_len)


def stream_rows(stream: Tokens, seq_len: int, offset: int = 0) -> Tokens:
    """The ``align="none"`` rows: shape (N, seq_len + 1), a read-only view of `stream`."""
    n = stream_row_count(len(stream), seq_len, offset)
    step = stream.strides[0]
    return np.lib.stride_tricks.as_strided(
        stream[offset:], shape=(n, seq_len + 1), strides=(seq_len * step, step), writeable=False
    )


def best_fit(sizes: Sequence[int] | IntArray, capacity: int) -> tuple[IntArray, IntArray]:
    """Plan ``align="bos"`` rows: which document pieces fill each row of `capacity` tokens.

    Args:
        sizes: shape (D,), each document's size (tokens + 1 for its BOS).
        capacity: tokens per row, ``seq_len + 1``.

    Returns:
        ``(docs, takes)``, both shape (P,): the pieces in row-major order, each the first
        ``takes[p]`` tokens of document ``docs[p]``. Each row's takes sum to `capacity`,
        so there are ``takes.sum() // capacity`` rows.
    """
    order = sorted(range(len(sizes)), key=lambda i: int(sizes[i]))
    pending = [int(sizes[i]) for i in order]
    docs: list[int] = []
    takes: list[int] = []
    row_start, space = 0, capacity
    while pending:
        fits = bisect_right(pending, space)
        j = fits - 1 if fits else 0  # the largest that fits, else the shortest (cropped)
        take = min(pending.pop(j), space)
        docs.append(order.pop(j))
        takes.append(take)
        space -= take
        if space == 0:
            row_start, space = len(docs), capacity
    del docs[row_start:], takes[row_start:]  # the unfilled last row
    return np.array(docs, dtype=np.int64), np.array(takes, dtype=np.int64)


def bos_row_count(sizes: Sequence[int] | IntArray, capacity: int) -> int:
    """Number of ``align="bos"`` rows `best_fit` makes from these document sizes."""
    _, takes = best_fit(sizes, capacity)
    return int(takes.sum()) // capacity


def bos_rows(stream: Tokens, starts: IntArray, seq_len: int) -> Tokens:
    """The ``align="bos"`` rows of a stream made by `with_bos`: shape (N, seq_len + 1).

    Args:
        stream: the row group's documents, each preceded by BOS (from `with_bos`).
        starts: shape (D,), where each document (its BOS) starts in `stream`.
        seq_len: tokens per sample; rows have ``seq_len + 1``.
    """
    capacity = seq_len + 1
    sizes = np.diff(np.append(starts, len(stream)))
    docs, takes = best_fit(sizes, capacity)
    total = int(takes.sum())
    out_start = np.concatenate([[0], np.cumsum(takes)[:-1]]) if len(takes) else takes
    index = np.arange(total) + np.repeat(starts[docs] - out_start, takes)
    rows: Tokens = stream[index].reshape(total // capacity, capacity)
    return rows
