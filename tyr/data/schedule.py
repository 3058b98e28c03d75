"""The schedule: which row every stream yields next, and which streams every rank reads.

This is pure bookkeeping on integers; no data is read here. The unit of work is a row
group (a *unit*). Each epoch has a plan, an order of all units: their stored order
(``order="sequential"``) or a permutation seeded by ``(seed, epoch)`` (``"random"``).

Streams
    The plan is dealt round-robin to ``V`` streams: stream ``v`` reads units
    ``plan[v], plan[v + V], ...``, and within each unit its rows ``0, 1, ...`` (already
    shuffled by the loader in random order). Streams are disjoint within an epoch and
    move to the next epoch on their own. A stream's position is a `Cursor`.

Ranks
    With ``W`` ranks, rank ``r`` owns streams ``v`` with ``v % W == r``. At global step
    ``s`` the rank fills its ``B`` batch rows round-robin from its ``m`` streams:
    row ``k`` comes from its stream number ``(s * B + k) % m``.

Every rank keeps the cursors of *all* ``V`` streams (the other ranks' streams only need
row counts, which come from the manifest or the small ``num_tokens`` column). So the
state after ``s`` steps, ``(s, cursors)``, is the same on every rank, any rank can save
it, and it can be restored on another number of ranks (any ``W <= V``): the streams
simply get new owners and continue where they were, so no row is repeated or skipped.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from tyr.data.errors import NO_COMPLETE_ROWS, DataError
from tyr.data.tokenizers import IntArray

RowCount = Callable[[int, int], int]
"""``rows(epoch, unit)``: how many rows `unit` packs into in `epoch`."""

PLAN, DOCS, OFFSET, ROWS = range(4)
"""Tags that keep the random streams of `rng` apart."""


def rng(seed: int, tag: int, epoch: int, unit: int = 0) -> np.random.Generator:
    """The random generator for one purpose (`tag`) of one unit in one epoch."""
    return np.random.default_rng([seed, tag, epoch, unit])


@dataclass
class Cursor:
    """Where a stream is: its epoch, its index among that epoch's units, the next row."""

    epoch: int = 0
    slot: int = 0
    row: int = 0


class Schedule:
    """The deterministic order of rows for every stream.

    Args:
        n_units: number of units (row groups) in the split.
        streams: number of streams ``V`` (``1 <= V <= n_units``).
        shuffle: permute units every epoch (``order="random"``).
        seed: seed of the permutations.
        rows: ``rows(epoch, unit)``, the number of rows of a unit.
        describe: names for error messages (``split``, ``row_len``, ``align``).
    """

    def __init__(
        self, n_units: int, streams: int, *, shuffle: bool, seed: int, rows: RowCount, describe: dict[str, object]
    ) -> None:
        assert 1 <= streams <= n_units
        self.n_units = n_units
        self.streams = streams
        self.shuffle = shuffle
        self.seed = seed
        self.rows = rows
        self.describe = describe
        self._plans: dict[int, IntArray] = {}

    def plan(self, epoch: int) -> IntArray:
        """The order of all units in `epoch`, shape (n_units,)."""
        if epoch not in self._plans:
            if len(self._plans) > 4:
                self._plans.clear()
            units = np.arange(self.n_units, dtype=np.int64)
            self._plans[epoch] = rng(self.seed, PLAN, epoch).permutation(units) if self.shuffle else units
        return self._plans[epoch]

    def units(self, epoch: int, stream: int) -> IntArray:
        """The units stream `stream` reads in `epoch`, in order."""
        return self.plan(epoch)[stream :: self.streams]

    def take(self, stream: int, cursor: Cursor) -> tuple[int, int, int]:
        """The ``(epoch, unit, row)`` at `cursor`; moves `cursor` (in place) past it.

        Raises:
            DataError: a whole epoch of the stream packs into no row at all.
        """
        empty = 0
        while True:
            units = self.units(cursor.epoch, stream)
            if cursor.slot >= len(units):
                cursor.epoch, cursor.slot, cursor.row = cursor.epoch + 1, 0, 0
                continue
            unit = int(units[cursor.slot])
            if cursor.row < self.rows(cursor.epoch, unit):
                cursor.row += 1
                return cursor.epoch, unit, cursor.row - 1
            cursor.slot, cursor.row = cursor.slot + 1, 0
            empty += 1
            if empty > len(units) + 1:
                raise DataError(NO_COMPLETE_ROWS.format(stream=stream, epoch=cursor.epoch, **self.describe))


def owned_streams(streams: int, rank: int, world_size: int) -> list[int]:
    """The streams rank `rank` of `world_size` reads: ``v`` with ``v % world_size == rank``."""
    return list(range(rank, streams, world_size))


def batch_streams(owned: list[int], step: int, batch_size: int) -> list[int]:
    """Which owned stream each of the `batch_size` rows of global step `step` comes from."""
    return [owned[(step * batch_size + k) % len(owned)] for k in range(batch_size)]
