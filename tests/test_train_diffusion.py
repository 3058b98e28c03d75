"""The masked diffusion trainer end to end: it learns, resumes bit-exactly, runs on 2 ranks, refuses bad input early."""

import json
import shutil
from pathlib import Path

import pytest
import safetensors.torch
import torch

from scripts.train_diffusion import main, parse_args
from tests.conftest import MICRO, torchrun
from tyr.data import prepare
from tyr.metrics import read_metrics


def args(dataset: Path, out: Path, *extra: str) -> list[str]:
    return ["--data", str(dataset), "--out", str(out), *MICRO, "--eval-samples", "1", *extra]


def weights(checkpoint: Path) -> dict[str, torch.Tensor]:
    return safetensors.torch.load_file(checkpoint / "model.safetensors")


def test_training_lowers_the_nelbo_and_samples_text(dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    summary = main(args(dataset, tmp_path, "--max-steps", "40", "--eval-interval", "20", "--lr", "1e-2",
                        "--sample-tokens", "32", "--sample-steps", "8"))  # fmt: skip
    val = read_metrics(tmp_path / "metrics.jsonl")["val_loss"]
    assert val[40] < val[0] - 0.5, val
    assert summary["val_nelbo"] == pytest.approx(summary["val_nats_per_char"])
    assert summary["val_bits_per_char"] == pytest.approx(summary["val_nelbo"] / 0.693147, rel=1e-5)
    assert json.loads((tmp_path / "summary.json").read_text()) == summary
    sample = capsys.readouterr().out.split("--- sample ---\n")[1].split("\n--------------")[0]
    assert len(sample) >= 20 and "<|bos|>" not in sample


def test_resume_from_a_checkpoint_is_bit_identical(dataset: Path, tmp_path: Path) -> None:
    full, resumed = tmp_path / "full", tmp_path / "resumed"
    extra = ("--max-steps", "12", "--checkpoint-interval", "6", "--keep-checkpoints", "5", "--eval-interval", "6",
             "--dropout", "0.1")  # dropout: one more random stream that must come back  # fmt: skip
    main(args(dataset, full, *extra))
    resumed.mkdir()
    shutil.copytree(full / "step_00000006", resumed / "step_00000006")  # as if the run had died after step 6
    main(args(dataset, resumed, *extra))
    expected, got = weights(full / "step_00000012"), weights(resumed / "step_00000012")
    assert expected.keys() == got.keys()
    for name in expected:
        assert torch.equal(expected[name], got[name]), name


@pytest.mark.slow
def test_two_ranks_with_torchrun(dataset: Path, tmp_path: Path) -> None:
    done = torchrun("scripts.train_diffusion", *args(dataset, tmp_path), "--max-steps", "24", "--eval-interval", "12",
                    "--checkpoint-interval", "12", "--lr", "1e-2")  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "on 2 x cpu" in done.stdout
    val = read_metrics(tmp_path / "metrics.jsonl")["val_loss"]
    assert val[24] < val[0] - 0.3, val
    assert sorted(p.name for p in (tmp_path / "step_00000024").glob("rank*.json")) == ["rank00000.json", "rank00001.json"]


def test_an_unknown_preset_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        parse_args(["--data", "d", "--preset", "huge"])
    assert exit.value.code == 2
    assert "--preset: invalid choice: 'huge' (choose from" in capsys.readouterr().err


def test_a_context_longer_than_the_model_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        parse_args(["--data", "d", "--block-size", "32", "--seq-len", "64"])
    assert exit.value.code == 2
    assert "--seq-len 64 is longer than the model's context, --block-size 32" in capsys.readouterr().err


def test_a_tokenizer_without_room_for_mask_is_refused_before_any_work(tmp_path: Path) -> None:
    # 65,535 distinct characters + BOS: the 65,536 ids a uint16 token column holds, none left for MASK
    chars = [chr(c) for c in range(0x100, 0x100 + 65_535 + 2048) if not 0xD800 <= c < 0xE000][:65_535]
    paragraphs = ["".join(chars[i : i + 4096]) for i in range(0, len(chars), 4096)]
    (tmp_path / "wide.txt").write_text("\n\n".join(paragraphs))
    prepare([str(tmp_path / "wide.txt")], tmp_path / "wide", tokenizer="char", progress=False)
    out = tmp_path / "run"
    with pytest.raises(SystemExit, match="no room for MASK: masked diffusion adds MASK as id 65536"):
        main(["--data", str(tmp_path / "wide"), "--out", str(out), "--preset", "tiny"])
    assert not out.exists()
