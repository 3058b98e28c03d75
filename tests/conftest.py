"""Fixtures shared by the trainer tests: a small character dataset and how to launch runs."""

import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tyr.data import prepare

REPO = Path(__file__).resolve().parents[1]
_SHARED = Path("shared") / "data" / "tinyshakespeare.txt"
CORPUS = next((p / _SHARED for p in REPO.parents if (p / _SHARED).exists()), REPO.parent / _SHARED)
"""The corpus, in `shared/data/` next to the checkout (or next to a folder holding it: a worktree)."""

MICRO = ["--preset", "tiny", "--n-layer", "1", "--n-head", "2", "--n-embd", "16", "--block-size", "16",
         "--batch-size", "4", "--eval-batches", "2", "--sample-tokens", "0", "--log-interval", "2",
         "--warmup-steps", "2", "--threads", "1"]  # fmt: skip
"""A trainer run of a model with a few thousand parameters, one thread: steps take milliseconds."""


@pytest.fixture(scope="session")
def dataset(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The first 60,000 characters of tinyshakespeare as a character dataset (val: the last 10%)."""
    root = tmp_path_factory.mktemp("data")
    text = root / "shakespeare_head.txt"
    text.write_text(CORPUS.read_text()[:60_000])
    out = root / "char"
    prepare([str(text)], out, tokenizer="char", row_group_size=16, progress=False)
    return out


@pytest.fixture(scope="session")
def bpe_dataset(dataset: Path) -> Path:
    """The same 60,000 characters as `dataset`, tokenized by a byte-level BPE of 512 ids."""
    out = dataset.parent / "bpe"
    prepare([str(dataset.parent / "shakespeare_head.txt")], out, tokenizer="bpe", vocab_size=512, row_group_size=16,
            progress=False)  # fmt: skip
    return out


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def torchrun(module: str, *args: str, processes: int = 2, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run `python -m module args` on `processes` local ranks with torchrun; returns the finished process."""
    command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", str(processes),
               "--master_addr", "127.0.0.1", "--master_port", str(free_port()), "-m", module, *args]  # fmt: skip
    return subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=timeout)


def torchrun_script(script: str, *args: str, processes: int = 2, timeout: float = 120) -> None:
    """Run `tests/dist/<script>` on `processes` local ranks (one thread each); fail with its output if it fails."""
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", f"--nproc_per_node={processes}",
               str(REPO / "tests" / "dist" / script), *args]  # fmt: skip
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, f"torchrun {script} failed:\n{result.stdout}\n{result.stderr}"
