"""The manifest: a small JSON file that describes a prepared dataset.

``manifest.json`` sits next to the shards and the tokenizer::

    {
      "format": "tyr.data/1",
      "sources": ["tinyshakespeare.txt"],
      "documents": "paragraph",          # how the corpus was cut into documents
      "column": "tokens",                # "tokens" (pre-tokenized) or "text"
      "token_dtype": "uint16",           # element type of the `tokens` column
      "tokenizer": {"file": "tokenizer.json", "kind": "char", "vocab_size": 66,
                    "bos_id": 65, "sha256": "..."},
      "splits": {
        "train": {"documents": 6500, "chars": 1003000, "tokens": 1003000,
                  "shards": [{"file": "train-00000.parquet", "bytes": 812345,
                              "sha256": "...", "row_groups": [[1024, 158000], ...]}]},
        "val": {...}
      },
      "options": {...}                   # the prepare options, for the record
    }

Each row group is listed as ``[documents, tokens]``; loaders plan their work from these
counts without opening the shards. Token counts never include BOS.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

from tyr.data.errors import BAD_MANIFEST, MISSING_MANIFEST, UNKNOWN_SPLIT, ManifestError

FORMAT = "tyr.data/1"
MANIFEST_FILE = "manifest.json"

Column = Literal["text", "tokens"]
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class RowGroupInfo:
    """One Parquet row group: how many documents (rows) and tokens (BOS excluded) it holds."""

    documents: int
    tokens: int


@dataclass(frozen=True, kw_only=True)
class ShardInfo:
    """One Parquet file of a split, with its size and sha256 for integrity checks."""

    file: str
    bytes: int
    sha256: str
    row_groups: tuple[RowGroupInfo, ...]

    @property
    def documents(self) -> int:
        return sum(g.documents for g in self.row_groups)

    @property
    def tokens(self) -> int:
        return sum(g.tokens for g in self.row_groups)


@dataclass(frozen=True, kw_only=True)
class SplitInfo:
    """A split (``train`` or ``val``): totals and its shards in reading order."""

    documents: int
    chars: int
    tokens: int
    shards: tuple[ShardInfo, ...]


@dataclass(frozen=True, kw_only=True)
class TokenizerInfo:
    """Which tokenizer wrote the shards, and the checksum of its JSON file."""

    file: str
    kind: str
    vocab_size: int
    bos_id: int
    sha256: str


@dataclass(frozen=True, kw_only=True)
class Manifest:
    """Everything a loader needs to know about a dataset before opening a shard."""

    sources: tuple[str, ...]
    documents: str
    column: Column
    token_dtype: str
    tokenizer: TokenizerInfo
    splits: dict[str, SplitInfo]
    options: dict[str, Any] = field(default_factory=dict)
    format: str = FORMAT

    def split(self, name: str, folder: Path | str = "<dataset>") -> SplitInfo:
        """The split called `name`, or a `ManifestError` listing those that exist."""
        if name not in self.splits:
            raise ManifestError(UNKNOWN_SPLIT.format(folder=str(folder), split=name, available=sorted(self.splits)))
        return self.splits[name]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": self.format,
            "sources": list(self.sources),
            "documents": self.documents,
            "column": self.column,
            "token_dtype": self.token_dtype,
            "tokenizer": {
                "file": self.tokenizer.file,
                "kind": self.tokenizer.kind,
                "vocab_size": self.tokenizer.vocab_size,
                "bos_id": self.tokenizer.bos_id,
                "sha256": self.tokenizer.sha256,
            },
            "splits": {
                name: {
                    "documents": s.documents,
                    "chars": s.chars,
                    "tokens": s.tokens,
                    "shards": [
                        {
                            "file": sh.file,
                            "bytes": sh.bytes,
                            "sha256": sh.sha256,
                            "row_groups": [[g.documents, g.tokens] for g in sh.row_groups],
                        }
                        for sh in s.shards
                    ],
                }
                for name, s in self.splits.items()
            },
            "options": self.options,
        }

    @classmethod
    def from_json(cls, data: Any, *, source: str = MANIFEST_FILE) -> Manifest:
        """Parse and validate a manifest; a `ManifestError` names the first bad field."""
        reader = _Reader(source)
        obj = reader.get(data, None, dict, "manifest")
        fmt = reader.get(obj, "format", str, "format")
        if fmt != FORMAT:
            raise reader.fail(f"format is {fmt!r}, this version of tyr reads {FORMAT!r}")
        column = reader.get(obj, "column", str, "column")
        if column not in ("text", "tokens"):
            raise reader.fail(f"column is {column!r}, expected 'text' or 'tokens'")
        tok = reader.get(obj, "tokenizer", dict, "tokenizer")
        splits: dict[str, SplitInfo] = {}
        for name, raw in reader.get(obj, "splits", dict, "splits").items():
            where = f"splits.{name}"
            split = reader.get(raw, None, dict, where)
            shards = []
            for i, raw_shard in enumerate(reader.get(split, "shards", list, f"{where}.shards")):
                at = f"{where}.shards[{i}]"
                shard = reader.get(raw_shard, None, dict, at)
                groups = []
                for j, pair in enumerate(reader.get(shard, "row_groups", list, f"{at}.row_groups")):
                    ok = isinstance(pair, list) and len(pair) == 2 and all(_is_count(x) for x in pair)
                    if not ok:
                        raise reader.fail(f"{at}.row_groups[{j}] must be [documents, tokens], got {pair!r}")
                    groups.append(RowGroupInfo(documents=pair[0], tokens=pair[1]))
                shards.append(
                    ShardInfo(
                        file=reader.get(shard, "file", str, f"{at}.file"),
                        bytes=reader.count(shard, "bytes", f"{at}.bytes"),
                        sha256=reader.get(shard, "sha256", str, f"{at}.sha256"),
                        row_groups=tuple(groups),
                    )
                )
            splits[name] = SplitInfo(
                documents=reader.count(split, "documents", f"{where}.documents"),
                chars=reader.count(split, "chars", f"{where}.chars"),
                tokens=reader.count(split, "tokens", f"{where}.tokens"),
                shards=tuple(shards),
            )
        return cls(
            format=fmt,
            sources=tuple(reader.get(obj, "sources", list, "sources")),
            documents=reader.get(obj, "documents", str, "documents"),
            column="text" if column == "text" else "tokens",
            token_dtype=reader.get(obj, "token_dtype", str, "token_dtype"),
            tokenizer=TokenizerInfo(
                file=reader.get(tok, "file", str, "tokenizer.file"),
                kind=reader.get(tok, "kind", str, "tokenizer.kind"),
                vocab_size=reader.count(tok, "vocab_size", "tokenizer.vocab_size"),
                bos_id=reader.count(tok, "bos_id", "tokenizer.bos_id"),
                sha256=reader.get(tok, "sha256", str, "tokenizer.sha256"),
            ),
            splits=splits,
            options=dict(obj.get("options", {})),
        )

    def save(self, folder: Path | str) -> Path:
        path = Path(folder) / MANIFEST_FILE
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        return path


def load_manifest(folder: Path | str) -> Manifest:
    """Read ``manifest.json`` from a dataset folder.

    Raises:
        ManifestError: the file is missing, is not JSON, or lacks a field.
    """
    path = Path(folder) / MANIFEST_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as error:
        raise ManifestError(MISSING_MANIFEST.format(path=path, folder=str(folder))) from error
    except (OSError, UnicodeDecodeError) as error:
        raise ManifestError(BAD_MANIFEST.format(path=path, reason=str(error))) from error
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ManifestError(BAD_MANIFEST.format(path=path, reason=f"not JSON: {error}")) from error
    return Manifest.from_json(data, source=str(path))


def sha256_file(path: Path | str, *, chunk: int = 1 << 22) -> str:
    """Hex sha256 of a file, read in 4 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        while block := f.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def _is_count(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool) and x >= 0


class _Reader:
    """Field access that turns a missing or mistyped field into a `ManifestError`."""

    def __init__(self, source: str) -> None:
        self.source = source

    def fail(self, reason: str) -> ManifestError:
        return ManifestError(BAD_MANIFEST.format(path=self.source, reason=reason))

    def get(self, obj: Any, key: str | None, kind: type[T], where: str) -> T:
        value = obj if key is None else (obj.get(key) if isinstance(obj, dict) else None)
        if not isinstance(value, kind):
            raise self.fail(f"{where} must be a {kind.__name__}, got {value!r:.60}")
        return value

    def count(self, obj: Any, key: str, where: str) -> int:
        value = self.get(obj, key, int, where)
        if not _is_count(value):
            raise self.fail(f"{where} must be a non-negative integer, got {value!r}")
        return value
