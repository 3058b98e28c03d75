"""Losing a worker: real torchrun, a real SIGKILL at a random step, restart from the newest checkpoint.

And the inputs a restart can meet: a checkpoint from another world size or another model,
a damaged newest checkpoint, a rendezvous nobody answers.
"""

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import safetensors.torch
import torch

from scripts.train_gpt import main
from tests.conftest import MICRO, REPO, free_port

STEPS, EVERY = 240, 20
MODES = {"ddp": [], "diloco": ["--diloco-steps", "6", "--diloco-fragments", "2"]}


def args(dataset: Path, out: Path, *extra: str) -> list[str]:
    return ["--data", str(dataset), "--out", str(out), *MICRO, "--max-steps", str(STEPS), "--checkpoint-interval",
            str(EVERY), "--eval-interval", "100000", "--keep-checkpoints", "2", *extra]  # fmt: skip


class Launch:
    """torchrun with 2 workers in a session of its own; `stop()` ends whatever of it is left."""

    def __init__(self, argv: list[str], restarts: int) -> None:
        command = [sys.executable, "-m", "torch.distributed.run", "--nproc_per_node", "2", "--max-restarts",
                   str(restarts), "--monitor-interval", "0.1", "--master_addr", "127.0.0.1", "--master_port",
                   str(free_port()), "-m", "scripts.train_gpt", *argv]  # fmt: skip
        env = {**os.environ, "OMP_NUM_THREADS": "1"}
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, cwd=REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                        text=True, start_new_session=True)  # fmt: skip

    def workers(self) -> list[int]:
        """The agent's child processes: the workers of the current attempt."""
        children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        return [int(pid) for pid in children.read_text().split()] if children.exists() else []

    def wait(self, timeout: float) -> str:
        output, _ = self.process.communicate(timeout=timeout)
        return output

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)  # the session this test started, and only it
            self.process.communicate()


@pytest.fixture
def launches() -> Iterator[list[Launch]]:
    started: list[Launch] = []
    yield started
    for launch in started:
        launch.stop()


def logged_step(metrics: Path) -> int:
    """The last training step rank 0 logged (0 before any)."""
    lines = metrics.read_text().splitlines() if metrics.exists() else []
    return max((json.loads(line)["step"] for line in lines if line.endswith("}")), default=0)


def final_state(run: Path) -> tuple[dict[str, torch.Tensor], list[object]]:
    last = run / f"step_{STEPS:08d}"
    loaders = [json.loads((last / f"rank{r:05d}.json").read_text())["loader_state"] for r in range(2)]
    return safetensors.torch.load_file(last / "model.safetensors"), loaders


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_a_worker_killed_at_a_random_step_costs_nothing(
    dataset: Path, tmp_path: Path, launches: list[Launch], mode: str
) -> None:
    whole = Launch(args(dataset, tmp_path / "whole", *MODES[mode]), restarts=0)
    launches.append(whole)
    output = whole.wait(timeout=120)
    assert whole.process.returncode == 0, output
    uninterrupted = time.monotonic() - whole.started

    kill_at = random.randint(EVERY + 1, STEPS - 3 * EVERY)
    run = tmp_path / "killed"
    killed = Launch(args(dataset, run, *MODES[mode]), restarts=3)
    launches.append(killed)
    while logged_step(run / "metrics.jsonl") < kill_at:
        assert killed.process.poll() is None, f"the run ended before step {kill_at}:\n{killed.wait(10)}"
        assert time.monotonic() - killed.started < 90, f"step {kill_at} not reached in 90 s"
        time.sleep(0.01)
    victim = random.choice(killed.workers())
    os.kill(victim, signal.SIGKILL)
    output = killed.wait(timeout=120)
    lost = time.monotonic() - killed.started - uninterrupted
    assert killed.process.returncode == 0, output
    assert "exitcode: -9" in output, output  # torchrun saw the kill and restarted the group
    print(f"\n{mode}: worker {victim} killed at step ~{kill_at}; the run took {lost:.1f} s longer than unbroken")

    want_weights, want_loaders = final_state(tmp_path / "whole")
    got_weights, got_loaders = final_state(run)
    assert got_loaders == want_loaders  # every rank's data position: no row skipped or read twice
    assert want_weights.keys() == got_weights.keys()
    for name in want_weights:
        assert torch.equal(want_weights[name], got_weights[name]), f"{name} differs after a kill at step {kill_at}"
    summary = json.loads((run / "summary.json").read_text())
    assert (summary["steps"], summary["finished"]) == (STEPS, True)


@pytest.fixture(scope="module")
def two_rank_checkpoint(dataset: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A short 2-rank run's directory (checkpoints at steps 4 and 8)."""
    run = tmp_path_factory.mktemp("two_ranks")
    launch = Launch(["--data", str(dataset), "--out", str(run), *MICRO, "--max-steps", "8", "--checkpoint-interval",
                     "4", "--eval-interval", "100000"], restarts=0)  # fmt: skip
    try:
        output = launch.wait(timeout=120)
    finally:
        launch.stop()
    assert launch.process.returncode == 0, output
    return run


def test_a_checkpoint_from_another_world_size_is_refused(dataset: Path, tmp_path: Path, two_rank_checkpoint: Path) -> None:
    shutil.copytree(two_rank_checkpoint / "step_00000008", tmp_path / "step_00000008")
    with pytest.raises(SystemExit, match=r"written by 2 ranks; this run has 1"):
        main(["--data", str(dataset), "--out", str(tmp_path), *MICRO, "--max-steps", "12"])


def test_a_checkpoint_of_another_model_is_refused(dataset: Path, tmp_path: Path) -> None:
    main(["--data", str(dataset), "--out", str(tmp_path), *MICRO, "--max-steps", "2", "--eval-interval", "100000"])
    with pytest.raises(SystemExit) as error:
        main(["--data", str(dataset), "--out", str(tmp_path), *MICRO, "--max-steps", "4", "--n-embd", "32"])
    message = str(error.value)
    assert "does not fit GPT" in message and "shapes differ" in message and "model (" in message


def test_a_damaged_newest_checkpoint_falls_back_to_the_one_before(
    dataset: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    common = [*MICRO, "--max-steps", "12", "--checkpoint-interval", "4", "--keep-checkpoints", "5",
              "--eval-interval", "100000"]  # fmt: skip
    main(["--data", str(dataset), "--out", str(tmp_path / "whole"), *common])
    damaged = tmp_path / "damaged"
    for step in (4, 8):
        shutil.copytree(tmp_path / "whole" / f"step_{step:08d}", damaged / f"step_{step:08d}")
    weights = damaged / "step_00000008" / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:100])  # a truncated file, as a full disk leaves one
    capsys.readouterr()
    main(["--data", str(dataset), "--out", str(damaged), *common])
    err = capsys.readouterr()
    assert f"checkpoint {damaged / 'step_00000008'} is damaged" in err.err and "falling back" in err.err
    assert f"resuming from {damaged / 'step_00000004'}" in err.out
    want = safetensors.torch.load_file(tmp_path / "whole" / "step_00000012" / "model.safetensors")
    got = safetensors.torch.load_file(damaged / "step_00000012" / "model.safetensors")
    assert all(torch.equal(want[k], got[k]) for k in want)


def test_an_unreachable_rendezvous_fails_in_bounded_time_and_names_it(dataset: Path, tmp_path: Path) -> None:
    port = free_port()  # nobody listens there
    env = {**os.environ, "WORLD_SIZE": "2", "RANK": "1", "LOCAL_RANK": "1", "MASTER_ADDR": "127.0.0.1",
           "MASTER_PORT": str(port), "OMP_NUM_THREADS": "1"}  # fmt: skip
    command = [sys.executable, "-m", "scripts.train_gpt", "--data", str(dataset), "--out", str(tmp_path), *MICRO,
               "--dist-timeout", "3"]  # fmt: skip
    started = time.monotonic()
    done = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stdout + done.stderr
    assert time.monotonic() - started < 30
    assert f"rank 1 of 2 could not join the process group at 127.0.0.1:{port} within 3 s" in done.stderr
    assert "Traceback" not in done.stderr
