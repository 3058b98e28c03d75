"""Read one split of a prepared dataset, one row group at a time, checking everything.

A `SplitReader` is what stands between the loader and the files. On construction it
reads the manifest and the tokenizer and checks that every shard exists with the size the
manifest records (optionally its sha256 too), so a missing or truncated shard is reported
before training starts. Shards are opened lazily; when one is opened its schema and row
group layout are compared with the manifest, and pyarrow verifies page checksums on every
read. Token ids are checked against the vocabulary, and document lengths against the
stored ``num_tokens``. Every problem raises a `ShardError` naming the file.

The unit of reading is a row group (`Unit`): ``row_group_size`` documents of one shard.
A split with fewer row groups than a loader has streams (a small validation split read
by several ranks) is cut finer: each row group into equal runs of documents.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from tyr.data.errors import (
    CORRUPT_SHARD,
    LENGTH_MISMATCH,
    MISSING_SHARDS,
    SHARD_CHECKSUM,
    SHARD_LAYOUT,
    SHARD_SIZE_CHANGED,
    TOKEN_OUT_OF_RANGE,
    TOKENIZER_CHANGED,
    WRONG_COLUMN,
    TOO_FEW_DOCUMENTS_FOR_STREAMS,
    CorruptShardError,
    DataError,
    MissingShardError,
    SchemaError,
    TokenizerError,
    TokenRangeError,
)
from tyr.data.manifest import MANIFEST_FILE, Manifest, ShardInfo, load_manifest, sha256_file
from tyr.data.tokenizers import IntArray, Tokenizer, load_tokenizer

_PYARROW_ERRORS = (pa.ArrowException, OSError, ValueError)
MAX_OPEN_FILES = 16
"""Shards kept open at once by one reader."""


@dataclass(frozen=True)
class Unit:
    """The unit that is read, shuffled and dealt to ranks: a row group, or a run of it.

    Attributes:
        shard, row_group: where it is stored.
        first: its first document's index within the row group (0 for a whole group).
        documents, tokens: how many documents, and tokens (BOS excluded), it holds.
    """

    shard: int
    row_group: int
    first: int
    documents: int
    tokens: int


@dataclass(frozen=True)
class Documents:
    """The documents of one row group, tokenized, without BOS.

    Attributes:
        ids: shape (sum(lengths),), every document's tokens one after the other.
        lengths: shape (D,), int64, tokens per document.
    """

    ids: np.ndarray[Any, np.dtype[np.integer[Any]]]
    lengths: IntArray


class SplitReader:
    """Reads the row groups of one split of a prepared dataset.

    Args:
        folder: the dataset folder (holding ``manifest.json``).
        split: which split to read (default ``"train"``).
        verify_checksums: also compare every shard's sha256 with the manifest now
            (reads every byte once; default False: sizes are checked, and page checksums
            are verified as data is read).
        min_units: cut row groups into runs of documents until there are at least this
            many units (default 1: one unit per row group).

    Raises:
        ManifestError: the folder is not a dataset, or has no such split.
        TokenizerError: the tokenizer file is missing or differs from the manifest's.
        ShardError: a shard is missing, or its size (or checksum) is not the manifest's.
        DataError: the split has fewer than `min_units` documents.
    """

    def __init__(
        self, folder: str | Path, split: str = "train", *, verify_checksums: bool = False, min_units: int = 1
    ) -> None:
        self.folder = Path(folder)
        self.split = split
        self.manifest: Manifest = load_manifest(self.folder)
        self.manifest_sha256 = sha256_file(self.folder / MANIFEST_FILE)
        self.info = self.manifest.split(split, self.folder)
        self.tokenizer: Tokenizer = self._load_tokenizer()
        self.paths = [self.folder / shard.file for shard in self.info.shards]
        self._check_files(verify_checksums)
        self._open: dict[int, pq.ParquetFile] = {}
        self.units = [
            Unit(shard=i, row_group=j, first=0, documents=g.documents, tokens=g.tokens)
            for i, shard in enumerate(self.info.shards)
            for j, g in enumerate(shard.row_groups)
        ]
        if len(self.units) < min_units:
            self.units = self._cut(min_units)

    def _cut(self, count: int) -> list[Unit]:
        """Cut every row group into `parts` runs of documents, enough for `count` units."""
        documents = [u.documents for u in self.units]
        if sum(documents) < count:
            message = TOO_FEW_DOCUMENTS_FOR_STREAMS.format(split=self.split, documents=sum(documents), streams=count)
            raise DataError(message)
        parts = 1
        while sum(min(parts, d) for d in documents) < count:
            parts += 1
        units = []
        for group in self.units:
            lengths = self.lengths_of(group)
            k = min(parts, group.documents)
            bounds = [group.documents * i // k for i in range(k + 1)]
            for a, b in zip(bounds[:-1], bounds[1:]):
                units.append(Unit(group.shard, group.row_group, a, b - a, int(lengths[a:b].sum())))
        return units

    @property
    def column(self) -> str:
        return self.manifest.column

    def _load_tokenizer(self) -> Tokenizer:
        info = self.manifest.tokenizer
        path = self.folder / info.file
        tokenizer = load_tokenizer(path)
        actual = sha256_file(path)
        if actual != info.sha256:
            raise TokenizerError(TOKENIZER_CHANGED.format(path=path, actual=actual[:12], expected=info.sha256[:12]))
        return tokenizer

    def _check_files(self, verify_checksums: bool) -> None:
        missing = [p.name for p in self.paths if not p.is_file()]
        if missing:
            shown = ", ".join(missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            raise MissingShardError(
                MISSING_SHARDS.format(count=len(missing), split=self.split, files=shown, folder=str(self.folder)),
                self.folder / missing[0],
            )
        for path, shard in zip(self.paths, self.info.shards, strict=True):
            size = path.stat().st_size
            if size != shard.bytes:
                raise CorruptShardError(SHARD_SIZE_CHANGED.format(path=path, actual=size, expected=shard.bytes), path)
            if verify_checksums:
                verify_checksum(path, shard)

    def close(self) -> None:
        """Close the open shard files (reading again reopens them)."""
        for f in self._open.values():
            f.close()
        self._open.clear()

    def _file(self, shard: int) -> pq.ParquetFile:
        if shard in self._open:
            return self._open[shard]
        path = self.paths[shard]
        info = self.info.shards[shard]
        try:
            f = pq.ParquetFile(path, page_checksum_verification=True)
            names = f.schema_arrow.names
            types = {name: f.schema_arrow.field(name).type for name in names}
        except _PYARROW_ERRORS as error:
            raise self._corrupt(shard, error) from error
        column = self.manifest.column
        ok = column in types and "num_tokens" in types and pa.types.is_integer(types["num_tokens"])
        if ok and column == "tokens":
            ok = pa.types.is_list(types[column]) and pa.types.is_integer(types[column].value_type)
        elif ok:
            ok = pa.types.is_string(types[column]) or pa.types.is_large_string(types[column])
        if not ok:
            found = {n: str(t) for n, t in types.items()}
            wanted = {column: "list<uint>" if column == "tokens" else "string", "num_tokens": "int64"}
            raise SchemaError(WRONG_COLUMN.format(path=path, found=found, expected=wanted), path)
        groups = [f.metadata.row_group(i).num_rows for i in range(f.num_row_groups)]
        expected = [g.documents for g in info.row_groups]
        if groups != expected:
            detail = f"row groups of {groups[:8]} documents, manifest says {expected[:8]}"
            raise CorruptShardError(SHARD_LAYOUT.format(path=path, detail=detail), path)
        if len(self._open) >= MAX_OPEN_FILES:  # close the least recently opened
            self._open.pop(next(iter(self._open))).close()
        self._open[shard] = f
        return f

    def _corrupt(self, shard: int, error: BaseException) -> CorruptShardError:
        path = self.paths[shard]
        reason = f"{type(error).__name__}: {error}".strip()
        return CorruptShardError(CORRUPT_SHARD.format(path=path, reason=reason, folder=str(self.folder)), path)

    def _read(self, unit: Unit, columns: list[str]) -> pa.Table:
        f = self._file(unit.shard)
        try:
            table = f.read_row_group(unit.row_group, columns=columns)
        except _PYARROW_ERRORS as error:
            raise self._corrupt(unit.shard, error) from error
        whole = unit.first == 0 and unit.documents == table.num_rows
        return table if whole else table.slice(unit.first, unit.documents)

    def lengths(self, index: int) -> IntArray:
        """Tokens per document (shape (D,), BOS excluded) of unit `index`, from ``num_tokens``."""
        return self.lengths_of(self.units[index])

    def lengths_of(self, unit: Unit) -> IntArray:
        return self._lengths(unit, self._read(unit, ["num_tokens"]))

    def _lengths(self, unit: Unit, table: pa.Table) -> IntArray:
        column = table.column("num_tokens")
        lengths: IntArray = column.to_numpy().astype(np.int64)
        if column.null_count or (lengths < 0).any() or int(lengths.sum()) != unit.tokens:
            detail = f"row group {unit.row_group} holds {int(lengths.sum())} tokens, expected {unit.tokens}"
            path = self.paths[unit.shard]
            raise CorruptShardError(SHARD_LAYOUT.format(path=path, detail=detail), path)
        return lengths

    def read(self, index: int) -> Documents:
        """The tokenized documents of unit `index` (text is tokenized here)."""
        unit = self.units[index]
        column = self.manifest.column
        table = self._read(unit, [column, "num_tokens"])
        expected = self._lengths(unit, table)
        data = table.column(column).combine_chunks()
        if data.null_count:
            row = unit.first + int(np.flatnonzero(data.is_null().to_numpy(zero_copy_only=False))[0])
            detail = f"row group {unit.row_group}, document {row} is null"
            path = self.paths[unit.shard]
            raise CorruptShardError(SHARD_LAYOUT.format(path=path, detail=detail), path)
        if column == "tokens":
            ids = data.flatten().to_numpy(zero_copy_only=False)
            lengths = pc.list_value_length(data).to_numpy(zero_copy_only=False).astype(np.int64)
            hint = "The shard is damaged; re-run `python -m tyr.data prepare`."
        else:
            ids, lengths = self.tokenizer.encode_flat(data.to_pylist())
            hint = "The text was tokenized with another tokenizer than the dataset's tokenizer.json."
        if not np.array_equal(lengths, expected):
            row = int(np.flatnonzero(lengths != expected)[0])
            raise CorruptShardError(
                LENGTH_MISMATCH.format(
                    path=self.paths[unit.shard],
                    row_group=unit.row_group,
                    row=unit.first + row,
                    actual=int(lengths[row]),
                    expected=int(expected[row]),
                    hint=hint,
                ),
                self.paths[unit.shard],
            )
        self._check_range(unit, ids, lengths)
        return Documents(ids=ids, lengths=lengths)

    def _check_range(self, unit: Unit, ids: np.ndarray[Any, Any], lengths: IntArray) -> None:
        vocab = self.tokenizer.vocab_size
        if ids.size == 0 or (int(ids.min()) >= 0 and int(ids.max()) < vocab):
            return
        first = int(np.flatnonzero((ids < 0) | (ids >= vocab))[0])
        row = int(np.searchsorted(np.cumsum(lengths), first, side="right"))
        path = self.paths[unit.shard]
        raise TokenRangeError(
            TOKEN_OUT_OF_RANGE.format(
                path=path, row_group=unit.row_group, row=unit.first + row, token=int(ids[first]), vocab_size=vocab
            ),
            path,
        )


def verify_checksum(path: Path, shard: ShardInfo) -> None:
    """Raise `CorruptShardError` unless `path`'s sha256 is the one the manifest records."""
    actual = sha256_file(path)
    if actual != shard.sha256:
        message = SHARD_CHECKSUM.format(path=path, actual=actual[:12], expected=shard.sha256[:12])
        raise CorruptShardError(message, path)
