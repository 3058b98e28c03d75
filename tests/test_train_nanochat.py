"""The NanoChat trainer end to end on a BPE dataset: it learns, resumes exactly, runs on 2 ranks, and writes with its KV cache."""

import json
import shutil
from pathlib import Path

import pytest
import safetensors.torch
import torch

from scripts import chat_sample, nanochat_d20
from scripts.train_nanochat import main, parse_args
from tests.conftest import torchrun
from tyr.metrics import read_metrics

MICRO = ["--preset", "tiny", "--block-size", "16", "--batch-size", "4", "--eval-batches", "2", "--sample-tokens", "0",
         "--log-interval", "2", "--threads", "1"]  # fmt: skip
"""Width 32 (2 heads of 16 sharing one key/value head), 2 layers, 16 tokens per row: steps take milliseconds."""


def args(dataset: Path, out: Path, *extra: str) -> list[str]:
    return ["--data", str(dataset), "--out", str(out), *MICRO, *extra]


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    return safetensors.torch.load_file(checkpoint / "model.safetensors")


def test_sizes_are_derived_from_depth(capsys: pytest.CaptureFixture[str]) -> None:
    cpu = parse_args(["--data", "d", "--preset", "cpu"])
    assert (cpu.n_layer, cpu.n_embd, cpu.n_head, cpu.optimizer, cpu.align, cpu.schedule) == (4, 128, 4, "muon", "bos", "wsd")
    d20 = parse_args(["--data", "d", "--preset", "d20"])
    assert (d20.n_layer, d20.n_embd, d20.n_head, d20.block_size) == (20, 1280, 10, 2048)
    deeper = parse_args(["--data", "d", "--preset", "cpu", "--depth", "6", "--n-layer", "6"])  # agreeing is fine
    assert (deeper.n_layer, deeper.n_embd) == (6, 192)
    for wrong, message in [(["--n-embd", "64"], "--n-embd 64 disagrees with 128, derived from --depth: depth 4: 4 layers, "
                                                "width 4 x 32 = 128"),
                           (["--n-kv-head", "3"], "n_kv_head must divide the 4 query heads"),
                           (["--dropout", "0.1"], "NanoChat has no dropout")]:  # fmt: skip
        with pytest.raises(SystemExit) as exit:
            parse_args(["--data", "d", "--preset", "cpu", *wrong])
        assert exit.value.code == 2 and message in capsys.readouterr().err


@pytest.fixture(scope="module")
def run(bpe_dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 24-step run with checkpoints at 12 and 24."""
    out = tmp_path_factory.mktemp("nanochat") / "run"
    main(args(bpe_dataset, out, "--max-steps", "24", "--eval-interval", "12", "--checkpoint-interval", "12",
              "--keep-checkpoints", "5"))  # fmt: skip
    return out


def test_training_lowers_the_loss_and_writes_a_summary(run: Path) -> None:
    val = read_metrics(run / "metrics.jsonl")["val_loss"]
    assert val[24] < val[12] < val[0] - 0.5, val
    summary = json.loads((run / "summary.json").read_text())
    assert (summary["task"], summary["steps"], summary["tokens"], summary["finished"]) == ("nanochat", 24, 24 * 4 * 16, True)
    assert summary["val_loss"] == pytest.approx(val[24])
    assert 0 < summary["val_bpb"] < 8 and summary["val_bpb"] == pytest.approx(summary["val_nats_per_char"] / 0.693147,
                                                                             rel=1e-5)  # ASCII text: a byte a character
    config = json.loads((run / "step_00000024" / "meta.json").read_text())["extra"]["config"]
    assert (config["n_layer"], config["n_embd"], config["n_head"], config["n_kv_head"]) == (2, 32, 2, 1)


def test_resume_from_a_checkpoint_is_bit_identical(bpe_dataset: Path, run: Path, tmp_path: Path) -> None:
    shutil.copytree(run / "step_00000012", tmp_path / "step_00000012")  # as if the run had died after step 12
    summary = main(args(bpe_dataset, tmp_path, "--max-steps", "24", "--eval-interval", "12", "--checkpoint-interval", "12",
                        "--keep-checkpoints", "5"))  # fmt: skip
    expected, got = weights(run / "step_00000024"), weights(tmp_path / "step_00000024")
    assert expected.keys() == got.keys()
    for name in expected:
        assert torch.equal(expected[name], got[name]), name
    assert summary["tokens"] == 24 * 4 * 16


def test_chat_sample_writes_the_same_text_with_and_without_the_cache(run: Path) -> None:
    flags = ["--run", str(run), "--prompt", "MENENIUS:", "--tokens", "6", "--seed", "3"]  # prompt + 6 fit in 16
    cached = chat_sample.main(flags)
    assert cached.startswith("MENENIUS:") and len(cached) > len("MENENIUS:")
    assert chat_sample.main([*flags, "--no-cache"]) == cached
    assert chat_sample.main([*flags, "--temperature", "0"]) == chat_sample.main([*flags, "--temperature", "0", "--no-cache"])


def test_the_d20_configuration_is_sized_and_runs_at_a_tiny_width(bpe_dataset: Path, tmp_path: Path) -> None:
    result = nanochat_d20.run(["--data", str(bpe_dataset), "--steps", "2", "--out", str(tmp_path)])
    assert result["params"] == 560_988_200  # nanochat's d20 (560,988,160) and 40 residual scalars
    assert result["flops_per_token"] == pytest.approx(3.49e9, rel=1e-3)
    assert result["tokens_per_step"] == 524_288 and result["cpu_summary"]["steps"] == 2


@pytest.mark.slow
def test_two_ranks_with_torchrun(bpe_dataset: Path, tmp_path: Path) -> None:
    done = torchrun("scripts.train_nanochat", *args(bpe_dataset, tmp_path), "--max-steps", "24", "--eval-interval", "12",
                    "--checkpoint-interval", "24")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on 2 x cpu" in done.stdout and done.stdout.count("nanochat: depth 2") == 1  # said once, by rank 0
    val = read_metrics(tmp_path / "metrics.jsonl")["val_loss"]
    assert val[24] < val[12] < val[0] - 0.5, val
    assert sorted(p.name for p in (tmp_path / "step_00000024").glob("rank*.json")) == ["rank00000.json", "rank00001.json"]
    assert json.loads((tmp_path / "summary.json").read_text())["tokens"] == 24 * 2 * 4 * 16
