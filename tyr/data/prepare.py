"""Turn a text corpus into Parquet shards with a train/validation split.

`prepare` reads the corpus three times, one file at a time, and never holds more than a
file and a row group in memory:

1. cut every file into documents and count them (and, for a character tokenizer,
   collect the vocabulary);
2. train the BPE tokenizer on the training documents (BPE only);
3. encode the documents and write them: the first documents go to ``train``, the last
   ``val_fraction`` of them (in corpus order, as nanoGPT does) to ``val``.

The output folder holds::

    manifest.json              counts, checksums, tokenizer, options (see `manifest`)
    tokenizer.json             the tokenizer (see `tokenizers`)
    train-00000.parquet ...    shard_size documents per shard, row_group_size per row group
    val-00000.parquet ...

Each shard has one row per document and two columns: ``tokens`` (list of uint16, or
uint32 for vocabularies over 65,536 ids; BOS not stored) or ``text`` (string), and
``num_tokens`` (int64, the document's token count, so loaders can plan without decoding).
Shards are zstd-compressed with page checksums, which pyarrow verifies when reading.

Nothing is lost on failure: the dataset is built in a temporary folder next to `out` and
only moved into place once complete; an existing dataset is kept unless ``overwrite``.

Example:
    >>> prepare(["tinyshakespeare.txt"], "data/shakespeare_char", tokenizer="char")  # doctest: +SKIP
"""

from __future__ import annotations

import itertools
import re
import tempfile
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from tqdm import tqdm

from tyr.data.errors import (
    DOWNLOAD_FAILED,
    EMPTY_INPUT,
    MISSING_INPUT,
    NOT_UTF8,
    OUTPUT_EXISTS,
    TOO_FEW_DOCUMENTS,
    InputError,
)
from tyr.data.manifest import (
    Column,
    Manifest,
    RowGroupInfo,
    ShardInfo,
    SplitInfo,
    TokenizerInfo,
    sha256_file,
)
from tyr.data.tokenizers import TOKENIZER_FILE, BPETokenizer, CharTokenizer, IntArray, Tokenizer, save_tokenizer

Documents = Literal["file", "paragraph", "line"]
TokenizerKind = Literal["char", "bpe"]

URL_SCHEMES = ("http://", "https://", "file://")
_PARAGRAPH_BREAK = re.compile(r"\n\n+")


def split_documents(text: str, documents: Documents) -> list[str]:
    """Cut one file's text into documents; empty documents are dropped.

    Args:
        text: the file's contents.
        documents: ``"file"`` (the whole file is one document), ``"paragraph"``
            (documents are separated by runs of two or more newlines) or ``"line"``
            (each line is a document; the newline is dropped).
    """
    if documents == "file":
        pieces = [text]
    elif documents == "paragraph":
        pieces = _PARAGRAPH_BREAK.split(text)
    elif documents == "line":
        pieces = text.split("\n")
    else:
        raise ValueError(f"documents must be 'file', 'paragraph' or 'line', got {documents!r}")
    return [p for p in pieces if p]


def prepare(
    sources: Sequence[str | Path],
    out: str | Path,
    *,
    tokenizer: TokenizerKind = "char",
    vocab_size: int = 4096,
    column: Column = "tokens",
    documents: Documents = "paragraph",
    val_fraction: float = 0.1,
    shard_size: int = 100_000,
    row_group_size: int = 1024,
    glob: str = "*.txt",
    overwrite: bool = False,
    progress: bool = True,
) -> Manifest:
    """Prepare a corpus into a dataset folder `out`; returns its manifest.

    Args:
        sources: text files, folders (every file matching `glob`, recursively, in sorted
            order) and URLs (``http://``, ``https://``, ``file://``), read in this order.
        out: the dataset folder to create.
        tokenizer: ``"char"`` (exact character vocabulary of the whole corpus) or
            ``"bpe"`` (byte-level BPE trained on the training split). Default ``"char"``.
        vocab_size: BPE vocabulary size, BOS included (default 4096); ignored for char.
        column: ``"tokens"`` to store pre-tokenized documents (default; fastest to load)
            or ``"text"`` to store raw text that loaders tokenize on the fly.
        documents: how files are cut into documents, see `split_documents`
            (default ``"paragraph"``).
        val_fraction: fraction of documents, taken from the end of the corpus, that form
            the ``val`` split (default 0.1; 0 writes no ``val`` split).
        shard_size: documents per Parquet file (default 100,000).
        row_group_size: documents per row group, the unit loaders read and deal to
            ranks (default 1024).
        glob: file pattern for folder sources (default ``"*.txt"``).
        overwrite: replace an existing dataset in `out` (default False).
        progress: show tqdm progress bars (default True).

    Raises:
        InputError: a source is missing, empty or not UTF-8, a download failed, the
            corpus is too small to split, or `out` already holds a dataset.
    """
    if shard_size < 1 or row_group_size < 1:
        raise ValueError(f"shard_size and row_group_size must be >= 1, got {shard_size} and {row_group_size}")
    if not 0 <= val_fraction < 1:
        raise ValueError(f"val_fraction must be in [0, 1), got {val_fraction}")
    if column not in ("tokens", "text"):
        raise ValueError(f"column must be 'tokens' or 'text', got {column!r}")
    out = Path(out)
    if out.exists() and any(out.iterdir()) and not overwrite:
        raise InputError(OUTPUT_EXISTS.format(out=str(out)))

    out.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".{out.name}.tmp-", dir=out.parent) as tmp:
        work = Path(tmp)
        downloads = work / "downloads"
        files = _resolve_sources(sources, glob=glob, downloads=downloads, progress=progress)
        corpus = _Corpus(files, documents)

        count, chars, charset = corpus.scan(progress=progress, want_chars=tokenizer == "char")
        if count == 0:
            raise InputError(EMPTY_INPUT.format(source=", ".join(map(str, sources)), detail="no documents"))
        n_val = 0 if val_fraction == 0 else max(1, round(count * val_fraction))
        if val_fraction > 0 and count < 2:
            raise InputError(TOO_FEW_DOCUMENTS.format(count=count, documents=documents, val_fraction=val_fraction))
        n_train = count - n_val

        tok: Tokenizer
        if tokenizer == "char":
            tok = CharTokenizer("".join(sorted(charset)))
        elif tokenizer == "bpe":
            tok = BPETokenizer.train(itertools.islice(corpus, n_train), vocab_size, length=n_train)
        else:
            raise ValueError(f"tokenizer must be 'char' or 'bpe', got {tokenizer!r}")

        dataset = work / "dataset"
        dataset.mkdir()
        token_dtype = "uint16" if tok.vocab_size <= 1 << 16 else "uint32"
        writers = {
            "train": _SplitWriter(dataset, "train", column, token_dtype, shard_size, row_group_size),
            "val": _SplitWriter(dataset, "val", column, token_dtype, shard_size, row_group_size),
        }
        bar = tqdm(total=count, desc="encode", unit="doc", disable=not progress)
        batch: list[str] = []
        for index, doc in enumerate(corpus):
            batch.append(doc)
            if index + 1 == n_train or len(batch) == row_group_size:
                writers["train" if index < n_train else "val"].add(batch, tok)
                bar.update(len(batch))
                batch = []
        if batch:  # the validation documents after the last full row group
            writers["val"].add(batch, tok)
            bar.update(len(batch))
        bar.close()

        closed = {name: w.close() for name, w in writers.items()}
        splits = {name: split for name, split in closed.items() if split.documents or name == "train"}
        tokenizer_path = save_tokenizer(tok, dataset / TOKENIZER_FILE)
        manifest = Manifest(
            sources=tuple(str(s) for s in sources),
            documents=documents,
            column=column,
            token_dtype=token_dtype,
            tokenizer=TokenizerInfo(
                file=TOKENIZER_FILE,
                kind=tok.kind,
                vocab_size=tok.vocab_size,
                bos_id=tok.bos_id,
                sha256=sha256_file(tokenizer_path),
            ),
            splits=splits,
            options={
                "tokenizer": tokenizer,
                "vocab_size": tok.vocab_size,
                "column": column,
                "documents": documents,
                "val_fraction": val_fraction,
                "shard_size": shard_size,
                "row_group_size": row_group_size,
                "glob": glob,
                "total_chars": chars,
            },
        )
        manifest.save(dataset)
        _move_into_place(dataset, out)
    return manifest


def _move_into_place(dataset: Path, out: Path) -> None:
    """Replace `out` by `dataset`; an old `out` is removed only after the swap."""
    if not out.exists():
        dataset.rename(out)
        return
    old = dataset.parent / "old"
    out.rename(old)
    dataset.rename(out)


def _resolve_sources(sources: Sequence[str | Path], *, glob: str, downloads: Path, progress: bool) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        text = str(source)
        if text.startswith(URL_SCHEMES):
            files.append(_download(text, downloads, progress=progress))
            continue
        path = Path(source)
        if path.is_dir():
            found = sorted(p for p in path.rglob(glob) if p.is_file())
            if not found:
                raise InputError(EMPTY_INPUT.format(source=text, detail=f"no files match {glob!r}"))
            files.extend(found)
        elif path.is_file():
            if path.stat().st_size == 0:
                raise InputError(EMPTY_INPUT.format(source=text, detail="0 bytes"))
            files.append(path)
        else:
            raise InputError(MISSING_INPUT.format(source=text))
    if not files:
        raise InputError(EMPTY_INPUT.format(source="<no sources>", detail="no sources were given"))
    return files


def _download(url: str, folder: Path, *, progress: bool) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    name = url.rstrip("/").rsplit("/", 1)[-1] or "download"
    target = folder / f"{len(list(folder.iterdir())):03d}-{name}"
    try:
        with urllib.request.urlopen(url) as response, open(target, "wb") as f:
            size = response.headers.get("Content-Length")
            total = int(size) if size and size.isdigit() else None
            with tqdm(total=total, desc=f"download {name}", unit="B", unit_scale=True, disable=not progress) as bar:
                while block := response.read(1 << 20):
                    f.write(block)
                    bar.update(len(block))
    except (urllib.error.URLError, OSError, ValueError) as error:
        raise InputError(DOWNLOAD_FAILED.format(url=url, reason=error)) from error
    if target.stat().st_size == 0:
        raise InputError(EMPTY_INPUT.format(source=url, detail="the download is 0 bytes"))
    return target


class _Corpus:
    """The documents of a list of files, re-readable (one file in memory at a time)."""

    def __init__(self, files: list[Path], documents: Documents) -> None:
        self.files = files
        self.documents = documents

    def __iter__(self) -> Iterator[str]:
        for path in self.files:
            yield from split_documents(_read_utf8(path), self.documents)

    def scan(self, *, progress: bool, want_chars: bool) -> tuple[int, int, set[str]]:
        """Count documents and characters; collect the character set if `want_chars`."""
        count = chars = 0
        charset: set[str] = set()
        for path in tqdm(self.files, desc="scan", unit="file", disable=not progress or len(self.files) < 2):
            for doc in split_documents(_read_utf8(path), self.documents):
                count += 1
                chars += len(doc)
                if want_chars:
                    charset.update(doc)
        return count, chars, charset


def _read_utf8(path: Path) -> str:
    data = path.read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InputError(NOT_UTF8.format(source=str(path), offset=error.start, reason=error.reason)) from error


@dataclass
class _SplitWriter:
    """Writes one split's documents into numbered shards of fixed-size row groups."""

    folder: Path
    split: str
    column: Column
    token_dtype: str
    shard_size: int
    row_group_size: int

    def __post_init__(self) -> None:
        self.documents = 0
        self.chars = 0
        self.tokens = 0
        self._shards: list[ShardInfo] = []
        self._writer: pq.ParquetWriter | None = None
        self._path: Path | None = None
        self._groups: list[RowGroupInfo] = []
        self._in_shard = 0
        self._pending: list[tuple[list[str], IntArray, IntArray]] = []
        value = pa.uint16() if self.token_dtype == "uint16" else pa.uint32()
        data = pa.list_(value) if self.column == "tokens" else pa.string()
        self._schema = pa.schema([(self.column, data), ("num_tokens", pa.int64())])

    def add(self, docs: list[str], tokenizer: Tokenizer) -> None:
        """Encode `docs` and write every row group that is complete."""
        ids, lengths = tokenizer.encode_flat(docs)
        self._pending.append((docs, ids, lengths))
        self._flush(final=False)

    def _flush(self, *, final: bool) -> None:
        """Write pending documents as row groups of row_group_size, restarting at each shard."""
        docs = [d for batch, _, _ in self._pending for d in batch]
        ids = np.concatenate([i for _, i, _ in self._pending] or [np.zeros(0, np.int64)])
        lengths = np.concatenate([n for _, _, n in self._pending] or [np.zeros(0, np.int64)])
        offsets = np.concatenate([[0], np.cumsum(lengths)])
        start = 0
        while start < len(docs):
            room = min(self.row_group_size, self.shard_size - self._in_shard)
            if len(docs) - start < room and not final:
                break
            if self._writer is None:
                self._open()
            stop = min(len(docs), start + room)
            self._write_group(docs[start:stop], ids[offsets[start] : offsets[stop]], lengths[start:stop])
            start = stop
        self._pending = [(docs[start:], ids[offsets[start] :], lengths[start:])] if start < len(docs) else []

    def _open(self) -> None:
        self._path = self.folder / f"{self.split}-{len(self._shards):05d}.parquet"
        self._writer = pq.ParquetWriter(
            self._path,
            self._schema,
            compression="zstd",
            use_dictionary=False,
            write_page_checksum=True,
        )

    def _write_group(self, docs: list[str], ids: IntArray, lengths: IntArray) -> None:
        assert self._writer is not None
        if self.column == "tokens":
            offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
            values = pa.array(ids.astype(self.token_dtype))
            data: pa.Array = pa.ListArray.from_arrays(pa.array(offsets), values, type=self._schema.field(0).type)
        else:
            data = pa.array(docs, type=pa.string())
        table = pa.Table.from_arrays([data, pa.array(lengths, type=pa.int64())], schema=self._schema)
        self._writer.write_table(table, row_group_size=len(docs))
        n_tokens = int(lengths.sum())
        self._groups.append(RowGroupInfo(documents=len(docs), tokens=n_tokens))
        self.documents += len(docs)
        self.chars += sum(len(d) for d in docs)
        self.tokens += n_tokens
        self._in_shard += len(docs)
        if self._in_shard == self.shard_size:
            self._finish_shard()

    def _finish_shard(self) -> None:
        assert self._writer is not None and self._path is not None
        self._writer.close()
        self._shards.append(
            ShardInfo(
                file=self._path.name,
                bytes=self._path.stat().st_size,
                sha256=sha256_file(self._path),
                row_groups=tuple(self._groups),
            )
        )
        self._writer, self._path, self._groups, self._in_shard = None, None, [], 0

    def close(self) -> SplitInfo:
        self._flush(final=True)
        if self._writer is not None:
            self._finish_shard()
        return SplitInfo(documents=self.documents, chars=self.chars, tokens=self.tokens, shards=tuple(self._shards))
