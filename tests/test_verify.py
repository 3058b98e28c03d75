"""`python -m tyr verify` end to end on a micro GPT, and that its checks can fail."""

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import torch
from torch import nn

from tests.conftest import MICRO, REPO
from tyr.verify.checks import _close, gradcheck_modules, table


@pytest.mark.slow
def test_verify_prints_a_table_of_checks_that_held(dataset: Path) -> None:
    command = [sys.executable, "-m", "tyr", "verify", "--family", "gpt", "--data", str(dataset), *MICRO]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if "  held  " in line]
    assert len(rows) == 5, done.stdout
    for check in ("DDP on 2 processes == 1 process, 2x accumulation", "ShardedAdamW == AdamW",
                  "DiLoCo H=1, outer SGD lr 1, no momentum == DDP", "gradcheck", "bit-exact"):  # fmt: skip
        assert any(check in row for row in rows), check


def test_verify_rejects_a_bad_trainer_flag_before_running_anything(dataset: Path) -> None:
    command = [sys.executable, "-m", "tyr", "verify", "--data", str(dataset), "--n-head", "3", "--n-embd", "16"]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "n_embd % n_head = 16 % 3 = 1" in done.stderr


def test_different_parameters_fail_the_comparison() -> None:
    a = {"w": torch.ones(3)}
    result = _close("runs agree", {"w": torch.tensor([1.0, 1.0, 1.001])}, a, started=0.0)
    assert not result.held and "1.0e-03" in result.detail
    assert "FAILED" in table([result])


class _WrongBackward(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, x: torch.Tensor) -> torch.Tensor:
        return x * x

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> torch.Tensor:
        return grad  # should be 2 x grad


class Squares(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return _WrongBackward.apply(x)


Squares.__module__ = "tyr.fake"  # gradcheck_modules checks the modules tyr defines


def test_gradcheck_catches_a_wrong_backward() -> None:
    result = gradcheck_modules(nn.Sequential(Squares()), torch.randn(2, 3))
    assert not result.held and "FAIL: Squares" in result.detail
