"""The GPT trainer end to end: it learns, resumes bit-exactly, stops cleanly on a signal, runs on 2 ranks."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import safetensors.torch
import torch

from scripts.train_gpt import TrainConfig, parse_args, train
from tyr.data import prepare
from tyr.metrics import read_metrics

REPO = Path(__file__).resolve().parents[1]
CORPUS = REPO.parent / "shared" / "data" / "tinyshakespeare.txt"
MICRO = ["--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16", "--batch-size", "4",
         "--eval-batches", "2", "--sample-tokens", "0", "--log-interval", "2", "--warmup-steps", "2"]  # fmt: skip


@pytest.fixture(scope="module")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("data")
    text = root / "shakespeare_head.txt"
    text.write_text(CORPUS.read_text()[:60_000])
    out = root / "char"
    prepare([str(text)], out, tokenizer="char", row_group_size=16, progress=False)
    return out


def config(dataset: Path, out: Path, *extra: str) -> TrainConfig:
    return parse_args(["--data", str(dataset), "--out", str(out), *MICRO, *extra])


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    return safetensors.torch.load_file(checkpoint / "model.safetensors")


def test_presets_and_overrides_parse() -> None:
    cfg = parse_args(["--data", "d", "--preset", "small", "--max-steps", "7", "--optimizer", "muon"])
    assert (cfg.n_layer, cfg.n_embd, cfg.max_steps, cfg.optimizer, cfg.dropout) == (6, 384, 7, "muon", 0.2)
    with pytest.raises(ValueError, match="optimizer must be adamw, muon or sharded"):
        parse_args(["--data", "d", "--optimizer", "sgd"])


def test_training_lowers_the_loss_and_writes_curves(dataset: Path, tmp_path: Path) -> None:
    results = train(config(dataset, tmp_path, "--max-steps", "60", "--eval-interval", "30", "--lr", "1e-2",
                            "--warmup-steps", "5"))
    series = read_metrics(tmp_path / "metrics.jsonl")
    val = series["val_loss"]
    assert val[60] < val[0] - 0.5, val
    assert results["val_loss"] == pytest.approx(val[60])
    assert (tmp_path / "curves.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "step_00000060" / "model.safetensors").exists()


def test_resume_from_a_checkpoint_is_bit_identical(dataset: Path, tmp_path: Path) -> None:
    full, resumed = tmp_path / "full", tmp_path / "resumed"
    args = ("--max-steps", "12", "--checkpoint-interval", "6", "--keep-checkpoints", "5", "--eval-interval", "6")
    train(config(dataset, full, *args))
    resumed.mkdir()
    shutil.copytree(full / "step_00000006", resumed / "step_00000006")  # as if the run had died after step 6
    train(config(dataset, resumed, *args))
    expected, got = weights(full / "step_00000012"), weights(resumed / "step_00000012")
    assert expected.keys() == got.keys()
    for name in expected:
        assert torch.equal(expected[name], got[name]), name


def test_sigint_stops_at_a_step_boundary_with_a_checkpoint(dataset: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "scripts.train_gpt", "--data", str(dataset), "--out", str(tmp_path), *MICRO,
               "--max-steps", "100000", "--checkpoint-interval", "100000", "--eval-interval", "100000"]  # fmt: skip
    process = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    metrics = tmp_path / "metrics.jsonl"
    deadline = time.monotonic() + 120
    while not (metrics.exists() and metrics.read_text().count("train_loss") >= 3):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()[0]
        time.sleep(0.2)
    process.send_signal(signal.SIGINT)
    output, _ = process.communicate(timeout=120)
    assert process.returncode == 0, output
    assert "checkpoint written" in output
    checkpoints = sorted(tmp_path.glob("step_*"))
    assert len(checkpoints) == 1 and int(checkpoints[0].name.split("_")[1]) >= 6


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize("optimizer", ["adamw", "sharded"])
def test_two_ranks_with_torchrun(dataset: Path, tmp_path: Path, optimizer: str) -> None:
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--master_addr", "127.0.0.1",
               "--master_port", str(free_port()), "-m", "scripts.train_gpt", "--data", str(dataset),
               "--out", str(tmp_path), *MICRO, "--max-steps", "8", "--eval-interval", "4",
               "--checkpoint-interval", "4", "--optimizer", optimizer]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on 2 x cpu" in done.stdout
    final = tmp_path / "step_00000008"
    shards = sorted(p.name for p in final.glob("rank*.json"))
    assert shards == ["rank00000.json", "rank00001.json"]
    assert all(torch.isfinite(t).all() for t in weights(final).values())
