"""TokenLoader: batches, orders, exact resume, ranks, and every kind of bad shard."""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import torch

from tyr.data import (
    Batch,
    CorruptShardError,
    DataError,
    ManifestError,
    MissingShardError,
    SchemaError,
    StateError,
    TokenizerError,
    TokenLoader,
    TokenRangeError,
    load_tokenizer,
    prepare,
)
from tyr.data.manifest import sha256_file
from tyr.data.packing import bos_rows, stream_rows
from tyr.data.schedule import batch_streams, owned_streams

REPO = Path(__file__).resolve().parents[1]
WORDS = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split()
Row = tuple[int, ...]


def make_documents(count: int, seed: int = 0) -> list[str]:
    rng = random.Random(seed)
    return [f"doc {i:05d}: " + " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 12))) for i in range(count)]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """200 distinct short documents; 180 train documents in 23 row groups of 8 over 3 shards."""
    folder = tmp_path_factory.mktemp("corpus")
    (folder / "corpus.txt").write_text("\n\n".join(make_documents(200)), encoding="utf-8")
    prepare([folder / "corpus.txt"], folder / "ds", row_group_size=8, shard_size=64, progress=False)
    return folder / "ds"


@pytest.fixture
def copy(corpus: Path, tmp_path: Path) -> Path:
    """A private copy of the dataset, for tests that damage it."""
    return Path(shutil.copytree(corpus, tmp_path / "ds"))


def rows(batch: Batch[Any, Any]) -> list[Row]:
    """The (T + 1)-token rows a batch was cut from."""
    full = torch.cat([batch.inputs, batch.targets[:, -1:]], dim=1)
    return [tuple(r) for r in full.tolist()]


def take(loader: TokenLoader, n: int) -> list[Batch[Any, Any]]:
    return [next(loader) for _ in range(n)]


def same(a: list[Batch[Any, Any]], b: list[Batch[Any, Any]]) -> bool:
    if len(a) != len(b):
        return False
    return all(torch.equal(x.inputs, y.inputs) and torch.equal(x.targets, y.targets) for x, y in zip(a, b))


def expected_unit_streams(folder: Path, split: str = "train") -> Iterator[np.ndarray]:
    """Each row group's documents, encoded with BOS, straight from the corpus text."""
    manifest = json.loads((folder / "manifest.json").read_text())
    tok = load_tokenizer(folder)
    docs = make_documents(200)
    start = 0 if split == "train" else manifest["splits"]["train"]["documents"]
    for shard in manifest["splits"][split]["shards"]:
        for count, _ in shard["row_groups"]:
            yield np.array([i for d in docs[start : start + count] for i in tok.encode(d, bos=True)])
            start += count


def test_batches_are_next_token_pairs_of_int64(corpus: Path) -> None:
    with TokenLoader(corpus, batch_size=4, seq_len=16) as loader:
        assert (loader.rank, loader.world_size, loader.streams) == (0, 1, 1)  # no torch.distributed: rank 0 of 1
        for batch in take(loader, 5):
            assert batch.inputs.shape == batch.targets.shape == (4, 16)
            assert batch.inputs.dtype == batch.targets.dtype == torch.int64
            assert batch.inputs.is_contiguous() and batch.targets.is_contiguous()
            assert torch.equal(batch.inputs[:, 1:], batch.targets[:, :-1])
            assert (batch.inputs[:, 0] == loader.tokenizer.bos_id).all()  # align="bos"
            assert int(batch.targets.max()) < loader.vocab_size


@pytest.mark.parametrize("align", ["none", "bos"])
def test_sequential_order_reads_the_corpus_in_order(corpus: Path, align: str) -> None:
    expected: list[Row] = []
    bos = load_tokenizer(corpus).bos_id
    for stream in expected_unit_streams(corpus):
        if align == "none":
            unit_rows = stream_rows(stream, 16)
        else:
            unit_rows = bos_rows(stream, np.flatnonzero(stream == bos), 16)
        expected += [tuple(r) for r in unit_rows.tolist()]
    settings: dict[str, Any] = {"batch_size": 1, "seq_len": 16, "order": "sequential", "align": align, "epochs": 1}
    loader = TokenLoader(corpus, **settings)
    assert [r for batch in loader for r in rows(batch)] == expected
    with pytest.raises(StopIteration):
        next(loader)


def test_random_order_depends_on_seed_and_epoch_only(corpus: Path) -> None:
    a = take(TokenLoader(corpus, batch_size=8, seq_len=16, seed=1), 30)
    b = take(TokenLoader(corpus, batch_size=8, seq_len=16, seed=1, prefetch=0), 30)
    c = take(TokenLoader(corpus, batch_size=8, seq_len=16, seed=2), 30)
    assert same(a, b) and not same(a, c)
    epoch = TokenLoader(corpus, batch_size=1, seq_len=16, order="sequential", epochs=1)
    sequential = sorted(r for batch in epoch for r in rows(batch))
    shuffled = TokenLoader(corpus, batch_size=1, seq_len=16, align="bos", epochs=1)
    first_epoch = [r for batch in shuffled for r in rows(batch)]
    assert len(first_epoch) == len(sequential) and first_epoch != sequential


@pytest.mark.parametrize("order", ["random", "sequential"])
@pytest.mark.parametrize("align", ["bos", "none"])
@pytest.mark.parametrize("prefetch", [0, 6])
def test_resume_is_exact(corpus: Path, order: Any, align: Any, prefetch: int) -> None:
    settings: dict[str, Any] = {"batch_size": 8, "seq_len": 16, "order": order, "align": align, "prefetch": prefetch}
    reference = take(TokenLoader(corpus, **settings), 60)  # about two epochs
    for stop in (1, 23, 41):
        first = TokenLoader(corpus, **settings)
        head = take(first, stop)
        state = json.loads(json.dumps(first.state_dict()))  # through JSON, as a checkpoint stores it
        assert state["step"] == stop  # however far the prefetch thread has read ahead
        first.close()
        second = TokenLoader(corpus, **settings)
        second.load_state_dict(state)
        assert same(head + take(second, 60 - stop), reference)


def per_stream(
    steps: list[list[Batch[Any, Any]]], streams: int, batch_size: int, first_step: int, into: dict[int, list[Row]]
) -> None:
    """File every row under the stream it came from (the documented dealing rule)."""
    world = len(steps)
    for offset, per_rank in enumerate(zip(*steps, strict=True)):
        for rank, batch in enumerate(per_rank):
            sources = batch_streams(owned_streams(streams, rank, world), first_step + offset, batch_size)
            for stream, row in zip(sources, rows(batch), strict=True):
                into[stream].append(row)


def stream_references(corpus: Path, streams: int, count: int) -> dict[int, list[Row]]:
    """The rows of each stream in order: one rank per stream, one row per batch."""
    refs = {}
    for v in range(streams):
        loader = TokenLoader(corpus, batch_size=1, seq_len=16, streams=streams, rank=v, world_size=streams)
        refs[v] = [rows(b)[0] for b in take(loader, count)]
    return refs


def test_ranks_are_disjoint_and_resume_on_another_world_size(corpus: Path) -> None:
    streams = 4
    refs = stream_references(corpus, streams, 160)  # more than an epoch per stream
    seen: dict[int, list[Row]] = {v: [] for v in range(streams)}
    two = [TokenLoader(corpus, batch_size=3, seq_len=16, streams=streams, rank=r, world_size=2) for r in (0, 1)]
    steps = [take(loader, 12) for loader in two]
    assert not set(r for b in steps[0] for r in rows(b)) & set(r for b in steps[1] for r in rows(b))
    assert two[0].state_dict() == two[1].state_dict()  # the state is global: any rank can save it
    state = two[0].state_dict()
    per_stream(steps, streams, 3, 0, seen)

    four = [TokenLoader(corpus, batch_size=5, seq_len=16, streams=streams, rank=r, world_size=4) for r in range(4)]
    for loader in four:
        loader.load_state_dict(state)
    steps = [take(loader, 10) for loader in four]
    per_stream(steps, streams, 5, 12, seen)
    state = four[3].state_dict()

    one = TokenLoader(corpus, batch_size=7, seq_len=16, streams=streams)
    one.load_state_dict(state)
    per_stream([take(one, 30)], streams, 7, 22, seen)
    for v in range(streams):  # every stream continued exactly: no row repeated, none skipped
        assert len(seen[v]) > 70 and seen[v] == refs[v][: len(seen[v])]


def test_finite_epochs_end_together_and_reset(corpus: Path) -> None:
    ranks = [TokenLoader(corpus, batch_size=4, seq_len=16, streams=2, rank=r, world_size=2, epochs=1) for r in (0, 1)]
    counts = [len(list(loader)) for loader in ranks]
    assert counts[0] == counts[1] > 0
    with pytest.raises(StopIteration):
        next(ranks[0])
    ranks[0].reset()
    fresh = TokenLoader(corpus, batch_size=4, seq_len=16, streams=2, rank=0, world_size=2, epochs=1)
    assert same(take(ranks[0], 3), take(fresh, 3))


def test_a_small_split_is_cut_finer_for_many_ranks(corpus: Path) -> None:
    """20 validation documents in 3 row groups (8, 8, 4), read by 4 ranks."""
    settings: dict[str, Any] = {"batch_size": 1, "seq_len": 16, "world_size": 4, "order": "sequential"}
    ranks = [TokenLoader(corpus, "val", rank=r, **settings) for r in range(4)]
    assert [(u.row_group, u.first, u.documents) for u in ranks[0].reader.units] == [
        (0, 0, 4), (0, 4, 4), (1, 0, 4), (1, 4, 4), (2, 0, 2), (2, 2, 2),
    ]  # fmt: skip
    for rank, loader in enumerate(ranks):  # rank r reads unit r first: documents 180 + 4r ... 183 + 4r
        first = loader.tokenizer.decode(list(rows(next(loader))[0][:10]))  # BOS + "doc NNNNN"
        assert first.startswith("<|bos|>doc 00") and 180 + 4 * rank <= int(first[-5:]) < 184 + 4 * rank


def test_state_from_other_settings_is_refused(corpus: Path) -> None:
    loader = TokenLoader(corpus, batch_size=4, seq_len=16)
    next(loader)
    state = loader.state_dict()
    other = TokenLoader(corpus, batch_size=4, seq_len=32)
    with pytest.raises(StateError, match="seq_len was 16 when it was saved but is 32 now"):
        other.load_state_dict(state)
    with pytest.raises(StateError, match="split was 'train' when it was saved but is 'val' now"):
        TokenLoader(corpus, "val", batch_size=4, seq_len=16).load_state_dict(state)
    with pytest.raises(StateError, match="Not a tyr.data loader state"):
        loader.load_state_dict({"step": 3})
    with pytest.raises(StateError, match="'step' or 'cursors' is malformed"):
        loader.load_state_dict({**state, "cursors": [[0, 0]]})
    bigger = TokenLoader(corpus, batch_size=16, seq_len=16)  # batch size may change
    bigger.load_state_dict(state)
    assert next(bigger).inputs.shape == (16, 16)


def test_settings_that_cannot_work_say_why(corpus: Path) -> None:
    with pytest.raises(DataError, match=r"Split 'val' has 20 document\(s\) but .* 25 streams"):
        TokenLoader(corpus, "val", batch_size=2, seq_len=16, streams=25)
    with pytest.raises(ValueError, match="world_size=4 is larger than streams=2"):
        TokenLoader(corpus, batch_size=2, seq_len=16, streams=2, rank=0, world_size=4)
    loader = TokenLoader(corpus, batch_size=2, seq_len=5000, align="none")
    with pytest.raises(DataError, match="holds no complete row of seq_len\\+1=5001 tokens"):
        next(loader)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.mark.slow
def test_two_real_processes_read_disjoint_rows_and_resume_on_one(corpus: Path, tmp_path: Path) -> None:
    command = [
        sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2",
        "--master_addr", "127.0.0.1", "--master_port", str(free_port()),
        str(REPO / "tests" / "dist" / "data_ranks.py"), str(corpus), str(tmp_path),
    ]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1", "GLOO_SOCKET_IFNAME": "lo"}
    run = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=180)
    assert run.returncode == 0, f"torchrun failed:\n{run.stdout}\n{run.stderr}"
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in (0, 1)]
    assert [(r["rank"], r["world_size"], r["streams"]) for r in ranks] == [(0, 2, 4), (1, 2, 4)]
    assert ranks[0]["state"] == ranks[1]["state"]
    steps = [[Batch(torch.tensor(b)[:, :-1], torch.tensor(b)[:, 1:]) for b in r["steps"]] for r in ranks]

    rows_of = [{tuple(row) for b in r["steps"] for row in b} for r in ranks]
    assert len(rows_of[0]) == len(rows_of[1]) == 36 and not rows_of[0] & rows_of[1]
    epoch = [[tuple(row) for b in r["epoch"] for row in b] for r in ranks]
    assert ranks[0]["epoch_counts"] == ranks[1]["epoch_counts"] == [len(r["epoch"]) for r in ranks]
    assert len(set(epoch[0] + epoch[1])) == len(epoch[0]) + len(epoch[1]) > 100  # no row read twice

    refs = stream_references(corpus, 4, 120)
    seen: dict[int, list[Row]] = {v: [] for v in range(4)}
    per_stream(steps, 4, 3, 0, seen)
    one = TokenLoader(corpus, batch_size=5, seq_len=16, streams=4)  # the 2-rank state, resumed on 1 rank
    one.load_state_dict(ranks[1]["state"])
    per_stream([take(one, 20)], 4, 5, 12, seen)
    for v in range(4):
        assert len(seen[v]) > 30 and seen[v] == refs[v][: len(seen[v])]


# --- bad shards --------------------------------------------------------------------------


def rewrite_shard(folder: Path, file: str, groups: list[pa.Table]) -> None:
    """Replace a shard by these row groups and record its new size and checksum."""
    path = folder / file
    with pq.ParquetWriter(path, groups[0].schema) as writer:
        for table in groups:
            writer.write_table(table, row_group_size=len(table))
    manifest_path = folder / "manifest.json"
    manifest = json.loads(manifest_path.read_text())
    for split in manifest["splits"].values():
        for shard in split["shards"]:
            if shard["file"] == file:
                shard["bytes"], shard["sha256"] = path.stat().st_size, sha256_file(path)
    manifest_path.write_text(json.dumps(manifest))


def row_groups(path: Path) -> list[pa.Table]:
    f = pq.ParquetFile(path)
    return [f.read_row_group(i) for i in range(f.num_row_groups)]


def test_missing_and_truncated_shards_fail_on_construction(copy: Path) -> None:
    (copy / "train-00001.parquet").rename(copy / "elsewhere.parquet")
    with pytest.raises(MissingShardError, match=r"1 shard\(s\) of split 'train' are missing: train-00001.parquet"):
        TokenLoader(copy, batch_size=2, seq_len=16)
    (copy / "elsewhere.parquet").rename(copy / "train-00001.parquet")
    data = (copy / "train-00002.parquet").read_bytes()
    (copy / "train-00002.parquet").write_bytes(data[: len(data) // 2])
    message = f"train-00002.parquet is {len(data) // 2} bytes but the manifest says {len(data)}"
    with pytest.raises(CorruptShardError, match=message):
        TokenLoader(copy, batch_size=2, seq_len=16)


def test_corrupt_bytes_fail_on_read_and_nothing_is_lost(corpus: Path, copy: Path) -> None:
    settings: dict[str, Any] = {"batch_size": 4, "seq_len": 16, "order": "sequential", "prefetch": 3}
    reference = take(TokenLoader(corpus, **settings), 80)
    path = copy / "train-00002.parquet"  # the last shard: read after some batches
    good = path.read_bytes()
    middle = len(good) // 2
    path.write_bytes(good[:middle] + bytes(b ^ 0xFF for b in good[middle : middle + 64]) + good[middle + 64 :])
    with pytest.raises(CorruptShardError, match="sha256 is"):
        TokenLoader(copy, verify_checksums=True, **settings)
    loader = TokenLoader(copy, **settings)
    yielded: list[Batch[Any, Any]] = []
    with pytest.raises(CorruptShardError, match=r"train-00002.parquet is corrupt \(.*\)\. Restore it"):
        while True:
            yielded.append(next(loader))
    assert len(yielded) > 0 and same(yielded, reference[: len(yielded)])
    assert loader.state_dict()["step"] == len(yielded)  # the state is the last good batch
    path.write_bytes(good)  # the file is restored: iterating again continues exactly
    assert same(yielded + take(loader, 80 - len(yielded)), reference)


def test_wrong_column_is_named(copy: Path) -> None:
    groups = [t.rename_columns(["ids", "num_tokens"]) for t in row_groups(copy / "train-00000.parquet")]
    rewrite_shard(copy, "train-00000.parquet", groups)
    loader = TokenLoader(copy, batch_size=2, seq_len=16, order="sequential")
    with pytest.raises(SchemaError, match=r"has columns \{'ids': 'list<element: uint16>'.*promises \{'tokens'"):
        next(loader)


def test_token_ids_out_of_range_are_reported_with_their_place(copy: Path) -> None:
    groups = row_groups(copy / "train-00001.parquet")
    tokens = groups[2].column("tokens").combine_chunks()
    values = tokens.flatten().to_numpy().copy()
    vocab_size = load_tokenizer(copy).vocab_size
    values[int(groups[2].column("num_tokens")[0].as_py()) + 3] = vocab_size  # in document 1
    bad = pa.ListArray.from_arrays(tokens.offsets, pa.array(values, type=pa.uint16()))
    groups[2] = groups[2].set_column(0, "tokens", bad)
    rewrite_shard(copy, "train-00001.parquet", groups)
    loader = TokenLoader(copy, batch_size=2, seq_len=16, order="sequential", epochs=1)
    message = rf"row group 2, document 1: token id {vocab_size} is outside .* \[0, {vocab_size}\)"
    with pytest.raises(TokenRangeError, match=message):
        list(loader)


def test_bad_manifest_and_tokenizer(copy: Path, tmp_path: Path) -> None:
    with pytest.raises(ManifestError, match="is not a prepared dataset"):
        TokenLoader(tmp_path, batch_size=2, seq_len=16)
    saved = json.loads((copy / "tokenizer.json").read_text())
    saved["chars"] = saved["chars"].replace(":", ";")  # another vocabulary of the same size
    (copy / "tokenizer.json").write_text(json.dumps(saved))
    with pytest.raises(TokenizerError, match="does not match the manifest"):
        TokenLoader(copy, batch_size=2, seq_len=16)
    (copy / "manifest.json").write_text('{"format": "tyr.data/1", "column": "pixels"}')
    with pytest.raises(ManifestError, match="column is 'pixels', expected 'text' or 'tokens'"):
        TokenLoader(copy, batch_size=2, seq_len=16)


def test_text_column_is_tokenized_on_the_fly(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_text("\n\n".join(make_documents(120)), encoding="utf-8")
    common: dict[str, Any] = {"tokenizer": "bpe", "vocab_size": 300, "row_group_size": 8, "progress": False}
    prepare([tmp_path / "c.txt"], tmp_path / "tokens", column="tokens", **common)
    prepare([tmp_path / "c.txt"], tmp_path / "text", column="text", **common)
    for align in ("bos", "none"):
        a = take(TokenLoader(tmp_path / "tokens", batch_size=4, seq_len=12, align=align), 40)
        b = take(TokenLoader(tmp_path / "text", batch_size=4, seq_len=12, align=align), 40)
        assert same(a, b)
    other = tmp_path / "other"
    prepare([tmp_path / "c.txt"], other, column="text", **{**common, "vocab_size": 280})
    shutil.copy(other / "tokenizer.json", tmp_path / "text" / "tokenizer.json")  # shards and tokenizer disagree
    manifest = json.loads((tmp_path / "text" / "manifest.json").read_text())
    manifest["tokenizer"]["sha256"] = sha256_file(tmp_path / "text" / "tokenizer.json")
    (tmp_path / "text" / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(CorruptShardError, match="tokenized with another tokenizer"):
        next(TokenLoader(tmp_path / "text", batch_size=4, seq_len=12))
