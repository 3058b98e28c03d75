"""Preparing corpora into Parquet shards: round trips, layout, CLI, and bad inputs."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from tyr.data import InputError, SplitReader, load_manifest, prepare, split_documents
from tyr.data.__main__ import main
from tyr.data.manifest import sha256_file
from tests.conftest import CORPUS

REPO = Path(__file__).resolve().parents[1]
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu ünï ✓".split()


def make_documents(count: int, seed: int = 0) -> list[str]:
    """Distinct documents of 1 to 40 words, each starting with its number."""
    rng = random.Random(seed)
    return [f"doc {i:05d}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 40))) for i in range(count)]


def read_documents(folder: Path, split: str) -> list[str]:
    """Every document of a split, decoded back from the shards."""
    reader = SplitReader(folder, split)
    out = []
    for index in range(len(reader.units)):
        docs = reader.read(index)
        bounds = np.concatenate([[0], np.cumsum(docs.lengths)])
        out += [reader.tokenizer.decode(docs.ids[a:b].astype(np.int64)) for a, b in zip(bounds[:-1], bounds[1:])]
    reader.close()
    return out


def test_tinyshakespeare_char_round_trip(tmp_path: Path) -> None:
    text = CORPUS.read_text(encoding="utf-8")
    docs = split_documents(text, "paragraph")
    assert "\n\n".join(docs) == re.sub(r"\n\n+", "\n\n", text)  # documents are separated by blank lines
    manifest = prepare([CORPUS], tmp_path / "ds", progress=False)
    train, val = manifest.splits["train"], manifest.splits["val"]
    assert (manifest.tokenizer.kind, manifest.tokenizer.vocab_size, manifest.column) == ("char", 66, "tokens")
    assert train.documents + val.documents == len(docs) and val.documents == round(0.1 * len(docs))
    assert train.chars + val.chars == train.tokens + val.tokens == sum(map(len, docs))
    assert read_documents(tmp_path / "ds", "train") == docs[: train.documents]
    assert read_documents(tmp_path / "ds", "val") == docs[train.documents :]
    assert load_manifest(tmp_path / "ds") == manifest


def test_tinyshakespeare_bpe_round_trip(tmp_path: Path) -> None:
    docs = split_documents(CORPUS.read_text(encoding="utf-8"), "paragraph")
    manifest = prepare([CORPUS], tmp_path / "ds", tokenizer="bpe", vocab_size=1024, progress=False)
    assert (manifest.tokenizer.kind, manifest.tokenizer.vocab_size, manifest.token_dtype) == ("bpe", 1024, "uint16")
    assert manifest.splits["train"].tokens < manifest.splits["train"].chars / 2
    assert read_documents(tmp_path / "ds", "train") + read_documents(tmp_path / "ds", "val") == docs


@pytest.mark.parametrize("column", ["tokens", "text"])
def test_generated_folder_layout_and_round_trip(tmp_path: Path, column: str) -> None:
    docs = make_documents(53)
    for i in range(0, 53, 10):  # files read in path order, one in a subfolder; the glob skips README.md
        sub = tmp_path / "corpus" / ("z-nested" if i == 50 else "")
        sub.mkdir(parents=True, exist_ok=True)
        (sub / f"part{i:02d}.txt").write_text("\n\n".join(docs[i : i + 10]), encoding="utf-8")
    (tmp_path / "corpus" / "README.md").write_text("not a document")
    manifest = prepare(
        [tmp_path / "corpus"],
        tmp_path / "ds",
        tokenizer="bpe",
        vocab_size=300,
        column=column,  # type: ignore[arg-type]
        val_fraction=0.2,
        shard_size=7,
        row_group_size=3,
        progress=False,
    )
    train = manifest.splits["train"]
    assert (train.documents, manifest.splits["val"].documents) == (42, 11)
    assert [s.file for s in train.shards] == [f"train-{i:05d}.parquet" for i in range(6)]
    for shard in train.shards:
        path = tmp_path / "ds" / shard.file
        meta = pq.ParquetFile(path).metadata
        assert [meta.row_group(i).num_rows for i in range(meta.num_row_groups)] == [3, 3, 1]
        assert (shard.bytes, shard.sha256) == (path.stat().st_size, sha256_file(path))
        assert pq.ParquetFile(path).schema_arrow.names == [column, "num_tokens"]
    assert read_documents(tmp_path / "ds", "train") + read_documents(tmp_path / "ds", "val") == docs


def test_documents_by_file_and_by_line_and_file_urls(tmp_path: Path) -> None:
    docs = make_documents(20)
    (tmp_path / "a.txt").write_text("\n".join(docs[:10]) + "\n", encoding="utf-8")
    (tmp_path / "b.txt").write_text("\n".join(docs[10:]), encoding="utf-8")
    sources: list[str | Path] = [tmp_path / "a.txt", (tmp_path / "b.txt").as_uri()]  # a path and a file:// URL
    by_line = prepare(sources, tmp_path / "lines", documents="line", progress=False)
    assert by_line.splits["train"].documents == 18
    assert read_documents(tmp_path / "lines", "train") + read_documents(tmp_path / "lines", "val") == docs
    files = [tmp_path / "a.txt", tmp_path / "b.txt"]
    prepare(files, tmp_path / "files", documents="file", val_fraction=0.5, progress=False)
    assert read_documents(tmp_path / "files", "val") == ["\n".join(docs[10:])]


def test_cli_prepare_and_inspect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "c.txt").write_text("\n\n".join(make_documents(30)), encoding="utf-8")
    out = tmp_path / "ds"
    assert main(["prepare", str(tmp_path / "c.txt"), "--out", str(out), "--row-group-size", "4", "--quiet"]) == 0
    assert "train: 27 documents" in capsys.readouterr().out
    assert main(["inspect", str(out), "--verify", "--sample", "30"]) == 0
    printed = capsys.readouterr().out
    assert "verified: checksums, schema, lengths and token ids" in printed
    assert "sample    '<|bos|>doc 00000: " in printed
    assert main(["prepare", str(tmp_path / "c.txt"), "--out", str(out), "--quiet"]) == 2
    assert "already holds a dataset" in capsys.readouterr().err
    run = subprocess.run(
        [sys.executable, "-m", "tyr.data", "inspect", str(out)], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0 and "tokenizer char" in run.stdout, run.stderr


def test_bad_inputs_are_clear_errors(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    with pytest.raises(InputError, match="does not exist. Pass a text file"):
        prepare([tmp_path / "nope.txt"], out, progress=False)
    (tmp_path / "empty.txt").write_bytes(b"")
    with pytest.raises(InputError, match=r"empty.txt' is empty \(0 bytes\)"):
        prepare([tmp_path / "empty.txt"], out, progress=False)
    (tmp_path / "folder").mkdir()
    with pytest.raises(InputError, match=r"is empty \(no files match '\*.txt'\)"):
        prepare([tmp_path / "folder"], out, progress=False)
    (tmp_path / "blank.txt").write_text("\n\n\n")
    with pytest.raises(InputError, match=r"is empty \(no documents\)"):
        prepare([tmp_path / "blank.txt"], out, progress=False)
    (tmp_path / "latin1.txt").write_bytes("caf\xe9 au lait".encode("latin-1"))
    with pytest.raises(InputError, match=r"not valid UTF-8 \(byte 3: invalid continuation byte\).*iconv"):
        prepare([tmp_path / "latin1.txt"], out, progress=False)
    (tmp_path / "one.txt").write_text("a single paragraph")
    with pytest.raises(InputError, match=r"1 document\(s\) with documents='paragraph'.*val_fraction=0"):
        prepare([tmp_path / "one.txt"], out, progress=False)
    with pytest.raises(InputError, match="Could not download 'file:///no/such/file.txt'"):
        prepare(["file:///no/such/file.txt"], out, progress=False)
    assert not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary folder left


def test_an_existing_dataset_is_never_lost(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_text("\n\n".join(make_documents(20)), encoding="utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe")
    out = tmp_path / "ds"
    prepare([tmp_path / "c.txt"], out, progress=False)
    before = {p.name: sha256_file(p) for p in out.iterdir()}
    with pytest.raises(InputError, match="already holds a dataset"):
        prepare([tmp_path / "c.txt"], out, tokenizer="bpe", vocab_size=300, progress=False)
    with pytest.raises(InputError, match="not valid UTF-8"):  # fails half-way: the old dataset stays
        prepare([tmp_path / "c.txt", tmp_path / "bad.txt"], out, overwrite=True, progress=False)
    assert {p.name: sha256_file(p) for p in out.iterdir()} == before
    manifest = prepare([tmp_path / "c.txt"], out, tokenizer="bpe", vocab_size=300, overwrite=True, progress=False)
    assert load_manifest(out).tokenizer.kind == manifest.tokenizer.kind == "bpe"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.txt", "c.txt", "ds"]
