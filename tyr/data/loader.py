"""`TokenLoader`: streaming, per-rank, resumable batches of token windows.

How a batch is made
    1. *Units.* A split is a list of Parquet row groups (`shards.Unit`; cut into runs of
       documents if there are fewer than streams), read one at a time, never the whole
       dataset.
    2. *Schedule.* Each epoch orders the units (stored order, or a seeded permutation)
       and deals them round-robin to ``streams`` streams; each rank owns a fixed subset
       of the streams, so ranks never read the same row group in an epoch (`schedule`).
    3. *Packing.* A unit's documents (shuffled in random order) are each preceded by BOS
       and packed into rows of ``seq_len + 1`` tokens: best-fit with every row starting at
       a BOS (``align="bos"``), or a plain stream cut into windows (``align="none"``),
       see `packing`. In random order the rows of a unit are shuffled too.
    4. *Batches.* A rank fills the ``batch_size`` rows of each step round-robin from its
       streams (so a batch mixes as many row groups as the rank has streams), and yields
       ``Batch(inputs=rows[:, :-1], targets=rows[:, 1:])``, both (B, T) int64.

Resume state
    After every batch the loader's state is ``(step, one cursor per stream)``; it is the
    same on every rank (each rank keeps all streams' cursors, counting rows from metadata),
    so any rank may save it. `state_dict` always describes exactly the batches already
    returned, however far the background thread has read ahead; `load_state_dict` makes
    the next batch the one an uninterrupted run would have produced. The state can be
    loaded with a different ``batch_size`` or number of ranks (``world_size <= streams``):
    streams keep their positions, so no row is repeated or skipped.

Epochs
    With ``epochs=None`` (default) the loader never ends; with ``epochs=n`` every rank
    stops at the same step, the first at which some rank would need a row of epoch ``n``,
    so all ranks yield the same number of batches (safe for collective operations).

Errors
    Every problem raises a `DataError` subclass naming the file: a missing or resized
    shard when the loader is made; a damaged page, a wrong column or an out-of-range
    token id from `next()` when the row group is read. Nothing is lost: the state still
    describes the last good batch, and iterating again (once the file is restored)
    continues exactly from there.

Example:
    >>> loader = TokenLoader("data/shakespeare_char", batch_size=12, seq_len=256)  # doctest: +SKIP
    >>> inputs, targets = next(loader)  # (12, 256) int64 each  # doctest: +SKIP
    >>> checkpoint["loader_state"] = loader.state_dict()  # doctest: +SKIP
"""

from __future__ import annotations

import queue
import threading
from copy import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, NamedTuple, TypeVar

import numpy as np
import torch
import torch.distributed as dist

from tyr import Integer, Tensor
from tyr.data.errors import BAD_STATE, STATE_MISMATCH, TOO_FEW_STREAMS, StateError
from tyr.data.packing import Align, Tokens, bos_row_count, bos_rows, stream_row_count, stream_rows, with_bos
from tyr.data.schedule import DOCS, OFFSET, ROWS, Cursor, Schedule, batch_streams, owned_streams, rng
from tyr.data.shards import SplitReader
from tyr.data.tokenizers import IntArray, Tokenizer

B = TypeVar("B")
T = TypeVar("T")
Order = Literal["random", "sequential"]
STATE_FORMAT = "tyr.data.loader/1"
_SAME = ("dataset", "split", "seq_len", "align", "order", "seed", "streams")
"""State fields that must match for an exact resume."""


class Batch(NamedTuple, Generic[B, T]):
    """One training batch: next-token targets for every input position.

    Attributes:
        inputs: shape (B, T), int64 token ids.
        targets: shape (B, T), int64: ``targets[b, t]`` is the token after ``inputs[b, t]``.
    """

    inputs: Annotated[Tensor[B, T], Integer]
    targets: Annotated[Tensor[B, T], Integer]


@dataclass
class _UnitRows:
    """The packed rows of the unit a stream is currently reading."""

    epoch: int
    unit: int
    rows: Tokens
    order: IntArray | None

    def row(self, index: int) -> Tokens:
        row: Tokens = self.rows[index if self.order is None else int(self.order[index])]
        return row


class _Engine:
    """Makes batches one after another from a state; runs in the prefetch thread."""

    def __init__(self, reader: SplitReader, config: dict[str, Any], rank: int, world_size: int) -> None:
        self.reader = reader
        self.config = config
        self.seq_len: int = config["seq_len"]
        self.align: Align = config["align"]
        self.shuffle = config["order"] == "random"
        self.seed: int = config["seed"]
        self.bos = reader.tokenizer.bos_id
        self.rank = rank
        self.world_size = world_size
        self.batch_size: int = config["batch_size"]
        self.epochs: int | None = config["epochs"]
        self.owned = [owned_streams(config["streams"], q, world_size) for q in range(world_size)]
        self._bos_counts: dict[int, int] = {}
        self._offsets: dict[tuple[int, int], int] = {}
        self.schedule = Schedule(
            len(reader.units),
            config["streams"],
            shuffle=self.shuffle,
            seed=self.seed,
            rows=self.row_count,
            describe={"split": reader.split, "row_len": self.seq_len + 1, "align": self.align},
        )
        self.step = 0
        self.cursors = [Cursor() for _ in range(config["streams"])]
        self._current: dict[int, _UnitRows] = {}

    def reset(self, step: int, cursors: list[Cursor]) -> None:
        self.step, self.cursors = step, [copy(c) for c in cursors]

    def offset(self, epoch: int, unit: int) -> int:
        """Where ``align="none"`` windows start in a unit's stream (random in random order)."""
        if not self.shuffle or self.align != "none":
            return 0
        if (epoch, unit) not in self._offsets:
            if len(self._offsets) > 4 * len(self.reader.units):
                self._offsets.clear()
            self._offsets[epoch, unit] = int(rng(self.seed, OFFSET, epoch, unit).integers(self.seq_len))
        return self._offsets[epoch, unit]

    def row_count(self, epoch: int, unit: int) -> int:
        """Rows of `unit` in `epoch`, from metadata only (no token is read)."""
        info = self.reader.units[unit]
        if self.align == "none":
            return stream_row_count(info.tokens + info.documents, self.seq_len, self.offset(epoch, unit))
        if unit not in self._bos_counts:  # best-fit counts do not depend on the document order
            self._bos_counts[unit] = bos_row_count(self.reader.lengths(unit) + 1, self.seq_len + 1)
        return self._bos_counts[unit]

    def pack(self, epoch: int, unit: int) -> _UnitRows:
        """Read `unit` and pack it into rows, shuffled as the epoch's seed says."""
        docs = self.reader.read(unit)
        doc_order = rng(self.seed, DOCS, epoch, unit).permutation(len(docs.lengths)) if self.shuffle else None
        stream, starts = with_bos(docs.ids, docs.lengths, self.bos, doc_order)
        if self.align == "none":
            rows = stream_rows(stream, self.seq_len, self.offset(epoch, unit))
        else:
            rows = bos_rows(stream, starts, self.seq_len)
        assert len(rows) == self.row_count(epoch, unit), "row count from metadata and from data disagree"
        row_order = rng(self.seed, ROWS, epoch, unit).permutation(len(rows)) if self.shuffle else None
        return _UnitRows(epoch, unit, rows, row_order)

    def next_batch(self) -> tuple[Batch[Any, Any], dict[str, Any]] | None:
        """The next batch and the state after it, or None once `epochs` are done."""
        cursors = [copy(c) for c in self.cursors]
        mine: list[tuple[int, int, int, int]] = []
        for q in range(self.world_size):  # advance every rank's streams, keep our rows
            for stream in batch_streams(self.owned[q], self.step, self.batch_size):
                epoch, unit, row = self.schedule.take(stream, cursors[stream])
                if self.epochs is not None and epoch >= self.epochs:
                    return None
                if q == self.rank:
                    mine.append((stream, epoch, unit, row))
        shape = (self.batch_size, self.seq_len)
        inputs = np.empty(shape, dtype=np.int64)
        targets = np.empty(shape, dtype=np.int64)
        for k, (stream, epoch, unit, row) in enumerate(mine):
            current = self._current.get(stream)
            if current is None or (current.epoch, current.unit) != (epoch, unit):
                current = self._current[stream] = self.pack(epoch, unit)
            tokens = current.row(row)
            inputs[k] = tokens[:-1]
            targets[k] = tokens[1:]
        self.step, self.cursors = self.step + 1, cursors
        return Batch(torch.from_numpy(inputs), torch.from_numpy(targets)), self.state()

    def state(self) -> dict[str, Any]:
        return {
            "format": STATE_FORMAT,
            **{key: self.config[key] for key in _SAME},
            "step": self.step,
            "cursors": [[c.epoch, c.slot, c.row] for c in self.cursors],
            "batch_size": self.batch_size,
            "world_size": self.world_size,
        }


@dataclass
class _Failure:
    error: BaseException


_Item = tuple[Batch[Any, Any], dict[str, Any]] | _Failure | None
"""What the prefetch thread hands over: a batch and the state after it, an error, or the end."""


class TokenLoader:
    """Streams batches of token windows from one split of a prepared dataset.

    Args:
        path: the dataset folder written by `prepare`.
        split: ``"train"`` (default) or ``"val"``.
        batch_size: rows per batch on this rank, ``B``.
        seq_len: tokens per row, ``T``; rows are read as ``T + 1`` tokens.
        order: ``"random"`` (default: units, documents and rows shuffled anew each epoch,
            and ``align="none"`` windows shifted by a random offset) or ``"sequential"``
            (corpus order, the same every epoch).
        align: ``"bos"`` (default: every row starts at a document's BOS, best-fit packing,
            tails of documents longer than a row are dropped) or ``"none"`` (one stream,
            every token used). See `tyr.data.packing`. With documents much longer than
            ``seq_len`` "bos" drops most tokens (tinyshakespeare paragraphs with a
            character tokenizer and seq_len 64: 68%); use "none" there.
        seed: seed of the random order (default 0); ranks must use the same seed.
        streams: number of streams the units are dealt to (default: the world size).
            Each rank reads ``streams / world_size`` of them, and a batch mixes rows from
            that many row groups. A state can be restored on any world size up to
            ``streams``, so choose e.g. 8 to resume a 2-rank run on 1, 4 or 8 ranks.
        epochs: stop after this many epochs (default None: never stop).
        rank, world_size: this process's place among the data-parallel ranks (default:
            from `torch.distributed` if initialised, else rank 0 of 1).
        prefetch: batches prepared ahead by a background thread (default 4; 0 reads in
            the caller's thread).
        verify_checksums: compare every shard's sha256 with the manifest on construction
            (default False; sizes are always checked and page checksums on every read).

    Yields:
        `Batch` ``(inputs, targets)``, each of shape (B, T), dtype int64.

    Raises:
        ManifestError, TokenizerError, ShardError: the dataset is missing or damaged.
        DataError: the split has fewer documents than `streams`, or too few tokens for
            a single row of ``seq_len + 1``.
    """

    def __init__(
        self,
        path: str | Path,
        split: str = "train",
        *,
        batch_size: int,
        seq_len: int,
        order: Order = "random",
        align: Align = "bos",
        seed: int = 0,
        streams: int | None = None,
        epochs: int | None = None,
        rank: int | None = None,
        world_size: int | None = None,
        prefetch: int = 4,
        verify_checksums: bool = False,
    ) -> None:
        if batch_size < 1 or seq_len < 1:
            raise ValueError(f"batch_size and seq_len must be >= 1, got batch_size={batch_size}, seq_len={seq_len}")
        if order not in ("random", "sequential") or align not in ("bos", "none"):
            raise ValueError(
                f"order must be 'random' or 'sequential' and align 'bos' or 'none', got {order!r}, {align!r}"
            )
        if seed < 0 or prefetch < 0 or (epochs is not None and epochs < 1):
            raise ValueError(f"need seed >= 0, prefetch >= 0 and epochs >= 1, got {seed}, {prefetch}, {epochs}")
        self.rank, self.world_size = _rank_and_world(rank, world_size)
        streams = self.world_size if streams is None else streams
        if self.world_size > streams:
            raise ValueError(TOO_FEW_STREAMS.format(world_size=self.world_size, streams=streams))
        self.reader = SplitReader(path, split, verify_checksums=verify_checksums, min_units=streams)
        self.batch_size, self.seq_len, self.streams, self.prefetch = batch_size, seq_len, streams, prefetch
        config = {
            "dataset": self.reader.manifest_sha256,
            "split": split,
            "seq_len": seq_len,
            "align": align,
            "order": order,
            "seed": seed,
            "streams": streams,
            "batch_size": batch_size,
            "epochs": epochs,
        }
        self._engine = _Engine(self.reader, config, self.rank, self.world_size)
        self._state = self._engine.state()
        self._initial = self._state
        self._finished = False
        self._queue: queue.Queue[_Item] = queue.Queue(max(prefetch, 1))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    @property
    def tokenizer(self) -> Tokenizer:
        """The dataset's tokenizer (the one that wrote the shards)."""
        return self.reader.tokenizer

    @property
    def vocab_size(self) -> int:
        return self.reader.tokenizer.vocab_size

    def __iter__(self) -> TokenLoader:
        return self

    def __next__(self) -> Batch[Any, Any]:
        if self._finished:
            raise StopIteration
        try:
            item = self._next_item()
        except BaseException:
            self._restart()  # the state is still the last good batch; a retry resumes there
            raise
        if item is None:
            self._finished = True
            self._stop_thread()
            raise StopIteration
        batch, self._state = item
        return batch

    def _next_item(self) -> tuple[Batch[Any, Any], dict[str, Any]] | None:
        if self.prefetch == 0:
            return self._engine.next_batch()
        if self._thread is None:
            self._start_thread()
        item = self._queue.get()
        if isinstance(item, _Failure):
            raise item.error
        return item

    def _start_thread(self) -> None:
        self._stop = threading.Event()
        self._queue = queue.Queue(self.prefetch)
        self._thread = threading.Thread(
            target=_produce, args=(self._engine, self._queue, self._stop), name="tyr-data-prefetch", daemon=True
        )
        self._thread.start()

    def _stop_thread(self) -> None:
        if self._thread is None:
            return
        self._stop.set()
        while self._thread.is_alive():
            try:  # unblock a producer waiting on a full queue
                self._queue.get(timeout=0.05)
            except queue.Empty:
                pass
        self._thread.join()
        self._thread = None

    def _restart(self) -> None:
        """Forget everything prepared ahead: continue right after the last returned batch."""
        self._stop_thread()
        self._engine.reset(self._state["step"], _cursors(self._state["cursors"]))

    def state_dict(self) -> dict[str, Any]:
        """A JSON-able dict describing exactly the batches returned so far.

        It is the same on every rank. Restore it with `load_state_dict`, possibly into a
        loader with another ``batch_size`` or world size (at most ``streams``).
        """
        return _deep_copy(self._state)

    def load_state_dict(self, state: dict[str, Any]) -> None:
        """Continue after the batches `state` describes.

        Raises:
            StateError: `state` is not a loader state, or was saved with other data or
                settings (dataset, split, seq_len, align, order, seed, streams).
        """
        _validate(state, self._state)
        self._state = {**_deep_copy(state), "batch_size": self.batch_size, "world_size": self.world_size}
        self._finished = False
        self._restart()

    def reset(self) -> None:
        """Start again from the very first batch (e.g. before each validation pass)."""
        self.load_state_dict(self._initial)

    def close(self) -> None:
        """Stop the prefetch thread and close the shard files."""
        self._stop_thread()
        self.reader.close()

    def __enter__(self) -> TokenLoader:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __del__(self) -> None:
        if getattr(self, "_thread", None) is not None:
            self._stop.set()


def _produce(
    engine: _Engine, out: queue.Queue[_Item], stop: threading.Event
) -> None:
    """The prefetch thread: make batches until stopped, the data ends, or an error."""
    while not stop.is_set():
        item: _Item
        try:
            item = engine.next_batch()
        except BaseException as error:  # handed to the consumer, raised by next()
            item = _Failure(error)
        while not stop.is_set():
            try:
                out.put(item, timeout=0.05)
                break
            except queue.Full:
                continue
        if not isinstance(item, tuple):
            return


def _rank_and_world(rank: int | None, world_size: int | None) -> tuple[int, int]:
    if rank is None or world_size is None:
        initialised = dist.is_available() and dist.is_initialized()
        rank = (dist.get_rank() if initialised else 0) if rank is None else rank
        world_size = (dist.get_world_size() if initialised else 1) if world_size is None else world_size
    if not 0 <= rank < world_size:
        raise ValueError(f"need 0 <= rank < world_size, got rank={rank}, world_size={world_size}")
    return rank, world_size


def _cursors(raw: list[list[int]]) -> list[Cursor]:
    return [Cursor(epoch=e, slot=s, row=r) for e, s, r in raw]


def _deep_copy(state: dict[str, Any]) -> dict[str, Any]:
    return {k: [list(c) for c in v] if k == "cursors" else v for k, v in state.items()}


def _validate(state: Any, current: dict[str, Any]) -> None:
    if not isinstance(state, dict) or state.get("format") != STATE_FORMAT:
        raise StateError(BAD_STATE.format(reason=f"expected a dict with format {STATE_FORMAT!r}"))
    for key in _SAME:
        if state.get(key) != current[key]:
            raise StateError(STATE_MISMATCH.format(field=key, saved=state.get(key), current=current[key]))
    step, cursors = state.get("step"), state.get("cursors")
    ok = isinstance(step, int) and step >= 0 and isinstance(cursors, list) and len(cursors) == current["streams"]
    ok = ok and all(
        isinstance(c, list) and len(c) == 3 and all(isinstance(x, int) and x >= 0 for x in c) for c in cursors or []
    )
    if not ok:
        raise StateError(BAD_STATE.format(reason="'step' or 'cursors' is malformed"))
