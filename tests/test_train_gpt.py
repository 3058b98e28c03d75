"""The GPT trainer end to end: it learns, resumes bit-exactly, stops cleanly on a signal, runs on 2 ranks."""

import json
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import safetensors.torch
import torch

from scripts.train_gpt import GPTTask, main, parse_args
from tests.conftest import MICRO, REPO, torchrun
from tyr.metrics import read_metrics
from tyr.train import Trainer


def args(dataset: Path, out: Path, *extra: str) -> list[str]:
    return ["--data", str(dataset), "--out", str(out), *MICRO, *extra]


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    return safetensors.torch.load_file(checkpoint / "model.safetensors")


def test_presets_and_overrides_parse() -> None:
    cfg = parse_args(["--data", "d", "--preset", "small", "--max-steps", "7", "--optimizer", "muon"])
    assert (cfg.n_layer, cfg.n_embd, cfg.max_steps, cfg.optimizer, cfg.dropout) == (6, 384, 7, "muon", 0.2)
    cpu = parse_args(["--data", "d", "--preset", "cpu"])
    assert (cpu.n_layer, cpu.n_head, cpu.n_embd, cpu.block_size, cpu.batch_size, cpu.max_steps) == (4, 4, 128, 64, 12, 2000)
    assert (cpu.lr, cpu.warmup_steps, cpu.min_lr_ratio, cpu.beta2, cpu.weight_decay, cpu.grad_clip) == (
        1e-3, 100, 0.1, 0.99, 0.1, 1.0)  # fmt: skip


def test_training_lowers_the_loss_and_writes_curves_and_a_summary(dataset: Path, tmp_path: Path) -> None:
    summary = main(args(dataset, tmp_path, "--max-steps", "40", "--eval-interval", "20", "--lr", "1e-2",
                        "--warmup-steps", "5", "--sample-tokens", "30"))  # fmt: skip
    val = read_metrics(tmp_path / "metrics.jsonl")["val_loss"]
    assert val[40] < val[0] - 0.5, val
    assert (tmp_path / "curves.png").read_bytes()[:4] == b"\x89PNG"
    assert (tmp_path / "step_00000040" / "model.safetensors").exists()
    written = json.loads((tmp_path / "summary.json").read_text())
    assert written == summary
    assert (summary["steps"], summary["tokens"], summary["finished"]) == (40, 40 * 4 * 16, True)
    assert summary["val_loss"] == pytest.approx(val[40]) and summary["seconds"] > 0
    assert summary["val_bpb"] == pytest.approx(summary["val_nats_per_char"] / 0.693147, rel=1e-5)  # ASCII: byte = char


def test_resume_from_a_checkpoint_is_bit_identical(dataset: Path, tmp_path: Path) -> None:
    full, resumed = tmp_path / "full", tmp_path / "resumed"
    extra = ("--max-steps", "12", "--checkpoint-interval", "6", "--keep-checkpoints", "5", "--eval-interval", "6")
    main(args(dataset, full, *extra))
    resumed.mkdir()
    shutil.copytree(full / "step_00000006", resumed / "step_00000006")  # as if the run had died after step 6
    summary = main(args(dataset, resumed, *extra))
    expected, got = weights(full / "step_00000012"), weights(resumed / "step_00000012")
    assert expected.keys() == got.keys()
    for name in expected:
        assert torch.equal(expected[name], got[name]), name
    assert summary["tokens"] == 12 * 4 * 16


def test_gradient_accumulation_of_k_batches_of_b_equals_one_batch_of_kb(dataset: Path, tmp_path: Path) -> None:
    def gradients(*extra: str) -> tuple[float, dict[str, torch.Tensor]]:
        config = parse_args(args(dataset, tmp_path / "_".join(extra), *extra))
        trainer = Trainer(GPTTask(config), config)
        try:
            losses = [trainer.micro_step(next(trainer.train_loader), last=k == config.grad_accum - 1)
                      for k in range(config.grad_accum)]  # fmt: skip
            mean = float(sum(losses)) / len(losses)
            return mean, {n: p.grad.clone() for n, p in trainer.model.named_parameters() if p.grad is not None}
        finally:
            trainer.close()

    loss_accumulated, accumulated = gradients("--batch-size", "2", "--grad-accum", "3")
    loss_whole, whole = gradients("--batch-size", "6", "--grad-accum", "1")
    assert loss_accumulated == pytest.approx(loss_whole, rel=1e-6)
    assert accumulated.keys() == whole.keys()
    for name in whole:
        assert torch.allclose(accumulated[name], whole[name], rtol=1e-5, atol=1e-7), name


def test_sigint_stops_at_a_step_boundary_with_a_checkpoint(dataset: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "scripts.train_gpt", *args(dataset, tmp_path), "--max-steps", "100000",
               "--checkpoint-interval", "100000", "--eval-interval", "100000"]  # fmt: skip
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
    assert json.loads((tmp_path / "summary.json").read_text())["finished"] is False


@pytest.mark.slow
@pytest.mark.parametrize("optimizer", ["adamw", "sharded"])
def test_two_ranks_with_torchrun(dataset: Path, tmp_path: Path, optimizer: str) -> None:
    done = torchrun("scripts.train_gpt", *args(dataset, tmp_path), "--max-steps", "24", "--eval-interval", "12",
                    "--checkpoint-interval", "12", "--optimizer", optimizer, "--grad-accum", "2", "--lr", "1e-2")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on 2 x cpu" in done.stdout
    final = tmp_path / "step_00000024"
    shards = sorted(p.name for p in final.glob("rank*.json"))
    assert shards == ["rank00000.json", "rank00001.json"]
    assert all(torch.isfinite(t).all() for t in weights(final).values())
    val = read_metrics(tmp_path / "metrics.jsonl")["val_loss"]
    assert val[24] < val[0] - 0.3, val
    assert json.loads((tmp_path / "summary.json").read_text())["tokens"] == 24 * 2 * 4 * 16 * 2
