"""Checkpoints: round trip, mismatch messages, atomicity under SIGKILL, exact resume."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import safetensors.torch
import torch
from torch import nn

from tyr.checkpoint import (
    CheckpointMismatchError,
    latest_checkpoint,
    list_checkpoints,
    load_checkpoint,
    save_checkpoint,
)
from tyr.optim import AdamW, Muon, ShardedAdamW
from tyr.schedules import LRScheduler, WarmupCosine

from tests.conftest import torchrun_script

REPO = Path(__file__).resolve().parents[1]


class TinyLM(nn.Module):
    def __init__(self, vocab: int = 11, width: int = 8, tied: bool = True) -> None:
        super().__init__()
        self.wte = nn.Embedding(vocab, width)
        self.drop = nn.Dropout(0.1)
        self.hidden = nn.Linear(width, width)
        self.norm = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocab, bias=False)
        if tied:
            self.lm_head.weight = self.wte.weight
        self.register_buffer("scale", torch.ones(width))

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        x = self.drop(self.wte(idx))
        x = x + self.hidden(self.norm(x)) * self.scale
        return self.lm_head(x)


class Loader:
    """A toy data loader whose state is a position and a generator."""

    def __init__(self, seed: int) -> None:
        self.generator = torch.Generator().manual_seed(seed)
        self.position = 0

    def next(self) -> torch.Tensor:
        self.position += 1
        return torch.randint(0, 11, (4, 6), generator=self.generator)

    def state_dict(self) -> dict[str, Any]:
        return {"position": self.position, "generator": self.generator.get_state()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.position = state["position"]
        self.generator.set_state(state["generator"])


def same_tensors(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> bool:
    return a.keys() == b.keys() and all(torch.equal(a[k], b[k]) for k in a)


def trained(steps: int = 2) -> tuple[TinyLM, AdamW]:
    torch.manual_seed(0)
    model = TinyLM()
    opt = AdamW(model, lr=0.01)
    for _ in range(steps):
        opt.zero_grad()
        model(torch.randint(0, 11, (2, 5))).square().mean().backward()
        opt.step()
    return model, opt


# ---------------------------------------------------------------------------
# Round trip and layout


def test_round_trip_restores_everything(tmp_path: Path) -> None:
    model, opt = trained()
    loader = Loader(seed=3)
    loader.next()
    loader_state = {**loader.state_dict(), "shards": ("a.bin", "b.bin"), 7: [1.5, None, True]}
    extra = {"config": {"width": 8, "betas": (0.9, 0.95)}, "__odd": "key"}
    random.seed(5)
    np.random.seed(5)
    torch.manual_seed(5)
    path = save_checkpoint(
        tmp_path, step=42, model=model, optimizer=opt,
        schedule_state={"step": 42}, loader_state=loader_state, extra=extra,
    )  # fmt: skip
    expected_draws = (random.random(), float(np.random.rand()), torch.rand(3))

    assert path == tmp_path / "step_00000042"
    assert sorted(p.name for p in path.iterdir()) == [
        "meta.json", "model.safetensors", "rank00000.json", "rank00000.safetensors",
    ]  # fmt: skip
    stored = safetensors.torch.load_file(str(path / "model.safetensors"))
    assert "lm_head.weight" not in stored and "wte.weight" in stored  # tied: stored once
    assert json.loads((path / "meta.json").read_text())["model_aliases"] == {"lm_head.weight": "wte.weight"}

    random.seed(0)
    np.random.seed(0)
    torch.manual_seed(99)
    fresh = TinyLM()
    fresh_opt = AdamW(fresh, lr=0.5)
    checkpoint = load_checkpoint(path, model=fresh, optimizer=fresh_opt)

    assert same_tensors(fresh.state_dict(), model.state_dict())
    assert fresh.lm_head.weight is fresh.wte.weight  # tying survives loading
    assert fresh_opt.param_groups[0]["lr"] == 0.01
    for p, q in zip(fresh.parameters(), model.parameters()):
        assert same_tensors(
            {k: v for k, v in fresh_opt.state[p].items() if k != "step"},
            {k: v for k, v in opt.state[q].items() if k != "step"},
        )
        assert fresh_opt.state[p]["step"] == opt.state[q]["step"] == 2
    assert checkpoint.step == 42 and checkpoint.world_size == 1
    assert checkpoint.schedule_state == {"step": 42}
    assert checkpoint.extra == extra  # tuples and "__" keys come back as they were
    assert checkpoint.loader_state["shards"] == ("a.bin", "b.bin")
    assert checkpoint.loader_state[7] == [1.5, None, True]
    assert torch.equal(checkpoint.loader_state["generator"], loader.generator.get_state())
    assert (random.random(), float(np.random.rand())) == expected_draws[:2]
    assert torch.equal(torch.rand(3), expected_draws[2])


@pytest.mark.parametrize(
    "make",
    [Muon, ShardedAdamW, lambda model: torch.optim.AdamW(model.parameters(), lr=0.01)],
    ids=["Muon", "ShardedAdamW", "torch.optim.AdamW"],
)
def test_optimizer_state_round_trip(tmp_path: Path, make: Any) -> None:
    torch.manual_seed(0)
    model = TinyLM(tied=False)
    opt = make(model)
    for _ in range(2):
        opt.zero_grad()
        model(torch.randint(0, 11, (2, 5))).square().mean().backward()
        opt.step()
    path = save_checkpoint(tmp_path, step=2, model=model, optimizer=opt)
    again = make(TinyLM(tied=False))
    load_checkpoint(path, model=TinyLM(tied=False), optimizer=again)
    ours, theirs = opt.state_dict(), again.state_dict()
    assert ours["param_groups"] == theirs["param_groups"]
    assert ours["state"].keys() == theirs["state"].keys() and ours["state"]
    for key, values in ours["state"].items():
        assert values.keys() == theirs["state"][key].keys()
        for name, value in values.items():
            other = theirs["state"][key][name]
            assert torch.equal(value, other) if isinstance(value, torch.Tensor) else value == other


def test_latest_keep_last_and_replacing_a_step(tmp_path: Path) -> None:
    model, _ = trained(0)
    assert latest_checkpoint(tmp_path) is None and list_checkpoints(tmp_path / "missing") == []
    for step in (5, 10, 15, 20):
        save_checkpoint(tmp_path, step=step, model=model, keep_last=3)
    assert [p.name for p in list_checkpoints(tmp_path)] == ["step_00000010", "step_00000015", "step_00000020"]
    assert latest_checkpoint(tmp_path) == tmp_path / "step_00000020"

    with torch.no_grad():
        model.hidden.weight.fill_(3.0)
    save_checkpoint(tmp_path, step=20, model=model, extra={"again": True}, keep_last=None)
    fresh = TinyLM()
    assert load_checkpoint(tmp_path / "step_00000020", model=fresh).extra == {"again": True}
    assert torch.equal(fresh.hidden.weight, torch.full((8, 8), 3.0))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step_00000010", "step_00000015", "step_00000020"]


def test_unstorable_values_fail_before_writing(tmp_path: Path) -> None:
    model, _ = trained(0)
    with pytest.raises(TypeError, match=r"extra.weights is a tensor, but this part of a checkpoint is JSON only"):
        save_checkpoint(tmp_path, step=1, model=model, extra={"weights": torch.ones(2)})
    with pytest.raises(TypeError, match=r"loader_state.files is a builtins.set; a checkpoint stores tensors"):
        save_checkpoint(tmp_path, step=1, model=model, loader_state={"files": {"a", "b"}})
    assert not tmp_path.exists() or list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------
# Mismatches


def test_model_mismatch_lists_every_difference(tmp_path: Path) -> None:
    model, _ = trained(0)
    path = save_checkpoint(tmp_path, step=1, model=model)

    class Other(TinyLM):
        def __init__(self) -> None:
            super().__init__(vocab=13)  # wte and lm_head change shape
            self.extra = nn.Linear(2, 2)  # not in the checkpoint
            del self.scale  # in the checkpoint only
            self.norm.bias.data = self.norm.bias.data.double()

    other = Other()
    before = {k: v.clone() for k, v in other.state_dict().items()}
    with pytest.raises(CheckpointMismatchError) as info:
        load_checkpoint(path, model=other)
    message = str(info.value)
    assert "in the model but not the checkpoint (2): extra.weight, extra.bias" in message
    assert "in the checkpoint but not the model (1): scale" in message
    assert "shapes differ (2): wte.weight: checkpoint (11, 8), model (13, 8), lm_head.weight: checkpoint (11, 8), model (13, 8)" in message
    assert "dtypes differ (1): norm.bias: checkpoint torch.float32, model torch.float64" in message
    assert same_tensors(other.state_dict(), before)  # nothing was loaded


def test_optimizer_and_world_size_mismatches(tmp_path: Path) -> None:
    model, opt = trained(1)
    without = save_checkpoint(tmp_path / "a", step=1, model=model)
    with pytest.raises(CheckpointMismatchError, match="holds no optimizer state, but an optimizer was given"):
        load_checkpoint(without, model=TinyLM(), optimizer=AdamW(TinyLM()))
    unsharded = save_checkpoint(tmp_path / "b", step=1, model=model, optimizer=opt)
    with pytest.raises(CheckpointMismatchError, match=r"holds unsharded optimizer state \(AdamW\), but ShardedAdamW is sharded"):
        load_checkpoint(unsharded, model=TinyLM(), optimizer=ShardedAdamW(TinyLM()))

    meta = unsharded / "meta.json"
    meta.write_text(meta.read_text().replace('"world_size": 1', '"world_size": 2'))
    with pytest.raises(CheckpointMismatchError, match="was written by 2 ranks; this run has 1.*restore_rng=False"):
        load_checkpoint(unsharded, model=TinyLM())
    fresh = TinyLM()
    load_checkpoint(unsharded, model=fresh, restore_rng=False)  # weights alone load anyway
    assert same_tensors(fresh.state_dict(), model.state_dict())
    with pytest.raises(FileNotFoundError, match="not a complete tyr checkpoint"):
        load_checkpoint(tmp_path, model=fresh)


# ---------------------------------------------------------------------------
# Atomicity: SIGKILL in the middle of a save


SAVER = """
import sys
import torch
from torch import nn
from tyr.checkpoint import save_checkpoint

model = nn.Linear(2048, 2048)  # 16 MiB of weights: a save takes a while
step = 0
while True:
    step += 1
    with torch.no_grad():
        model.weight.fill_(step)
        model.bias.fill_(step)
    save_checkpoint(sys.argv[1], step=step, model=model, extra={"step": step}, keep_last=2)
"""


def kill_during_save(tmp_path: Path) -> tuple[Path, int, list[str]]:
    """Start a process that saves forever; SIGKILL it while a save is half done.

    Returns the run directory, the step whose save was interrupted and the files
    its temporary directory held. Retries (in a new run directory) if the kill
    lands just after a save completed.
    """
    for attempt in range(5):
        run_dir = tmp_path / f"attempt{attempt}"
        child = subprocess.Popen([sys.executable, "-c", SAVER, str(run_dir)], cwd=REPO)
        try:
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                complete = list_checkpoints(run_dir)
                partial = list(run_dir.glob(".tmp-step_*")) if complete else []
                if partial:
                    os.kill(child.pid, signal.SIGKILL)
                    break
                time.sleep(0.001)
            else:
                raise AssertionError("the saving process never started a second checkpoint")
        finally:
            child.kill()
            child.wait()
        step = int(partial[0].name.removeprefix(".tmp-step_"))
        if partial[0].exists() and not (run_dir / f"step_{step:08d}").exists():
            return run_dir, step, sorted(p.name for p in partial[0].iterdir())
    raise AssertionError("five kills in a row landed between saves")


@pytest.mark.slow
def test_kill_during_save_keeps_the_previous_checkpoint(tmp_path: Path) -> None:
    run_dir, interrupted, partial_files = kill_during_save(tmp_path)
    assert "meta.json" not in partial_files  # the save really was unfinished
    latest = latest_checkpoint(run_dir)
    assert latest == run_dir / f"step_{interrupted - 1:08d}"
    model = nn.Linear(2048, 2048)
    checkpoint = load_checkpoint(latest, model=model)
    assert checkpoint.step == checkpoint.extra["step"] == interrupted - 1
    assert torch.equal(model.weight, torch.full((2048, 2048), float(interrupted - 1)))
    # The next save clears the debris and completes.
    save_checkpoint(run_dir, step=interrupted, model=model, keep_last=None)
    assert not list(run_dir.glob(".tmp-*"))
    assert latest_checkpoint(run_dir) == run_dir / f"step_{interrupted:08d}"


def test_crash_while_replacing_a_step_is_recovered(tmp_path: Path) -> None:
    model, _ = trained(0)
    save_checkpoint(tmp_path, step=1, model=model, extra={"version": "original"})
    # The state a crash leaves between moving the old copy aside and renaming the new one in:
    os.rename(tmp_path / "step_00000001", tmp_path / ".old-step_00000001")
    (tmp_path / ".tmp-step_00000001").mkdir()
    assert latest_checkpoint(tmp_path) is None
    save_checkpoint(tmp_path, step=2, model=model, keep_last=None)
    assert [p.name for p in list_checkpoints(tmp_path)] == ["step_00000001", "step_00000002"]
    assert load_checkpoint(tmp_path / "step_00000001", model=TinyLM()).extra == {"version": "original"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["step_00000001", "step_00000002"]


# ---------------------------------------------------------------------------
# Exact resume


def build(seed: int) -> tuple[TinyLM, Muon, LRScheduler, Loader]:
    torch.manual_seed(seed)
    model = TinyLM()
    opt = Muon(model, lr=0.02, adam_lr=0.003)
    scheduler = LRScheduler(opt, WarmupCosine(warmup_steps=2, total_steps=8, final_ratio=0.1))
    return model, opt, scheduler, Loader(seed=seed + 1)


def train(model: TinyLM, opt: Muon, scheduler: LRScheduler, loader: Loader, steps: range) -> None:
    model.train()
    for _ in steps:
        idx = loader.next()
        jitter = 1 + 0.01 * random.random() + 0.01 * float(np.random.rand())  # Python and NumPy RNGs
        opt.zero_grad()
        logits = model(idx)  # dropout: torch RNG
        loss = nn.functional.cross_entropy(logits.flatten(0, 1), idx.roll(1, 1).flatten()) * jitter
        loss.backward()
        opt.step()
        scheduler.step()


def seed_all(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def test_resume_is_bit_identical(tmp_path: Path) -> None:
    seed_all(0)
    straight = build(seed=0)
    train(*straight, range(8))

    seed_all(0)
    first = build(seed=0)
    train(*first, range(4))
    model, opt, scheduler, loader = first
    save_checkpoint(
        tmp_path, step=4, model=model, optimizer=opt,
        schedule_state=scheduler.state_dict(), loader_state=loader.state_dict(),
    )  # fmt: skip

    seed_all(1234)  # a new process would start elsewhere: the checkpoint must restore it all
    model, opt, scheduler, loader = build(seed=77)
    checkpoint = load_checkpoint(tmp_path / "step_00000004", model=model, optimizer=opt)
    scheduler.load_state_dict(checkpoint.schedule_state)
    loader.load_state_dict(checkpoint.loader_state)
    train(model, opt, scheduler, loader, range(checkpoint.step, 8))

    assert same_tensors(model.state_dict(), straight[0].state_dict())
    assert loader.position == straight[3].position == 8
    assert scheduler.step_count == 8
    for p, q in zip(model.parameters(), straight[0].parameters()):
        for key, value in opt.state[p].items():
            assert torch.equal(value, straight[1].state[q][key]) if isinstance(value, torch.Tensor) else value == straight[1].state[q][key]



@pytest.mark.slow
def test_distributed_resume_with_sharded_optimizer_is_bit_identical(tmp_path: Path) -> None:
    run_dir, out = tmp_path / "run", tmp_path / "out"
    out.mkdir()
    torchrun_script("checkpoint_resume.py", "full", str(run_dir), str(out))
    checkpoint = run_dir / "step_00000003"
    assert sorted(p.name for p in checkpoint.iterdir()) == [
        "meta.json", "model.safetensors",
        "rank00000.json", "rank00000.safetensors", "rank00001.json", "rank00001.safetensors",
    ]  # fmt: skip
    meta = json.loads((checkpoint / "meta.json").read_text())
    assert meta["world_size"] == 2 and meta["optimizer"] == {"sharded": True, "class": "ShardedAdamW"}

    torchrun_script("checkpoint_resume.py", "resume", str(run_dir), str(out))  # fresh processes
    for rank in range(2):
        full = safetensors.torch.load_file(str(out / f"full_rank{rank}.safetensors"))
        resumed = safetensors.torch.load_file(str(out / f"resume_rank{rank}.safetensors"))
        assert same_tensors(full, resumed), rank
        assert int(full["loader.position"]) == 6
    shard0 = safetensors.torch.load_file(str(out / "full_rank0.safetensors"))["optimizer.0.exp_avg"]
    shard1 = safetensors.torch.load_file(str(out / "full_rank1.safetensors"))["optimizer.0.exp_avg"]
    assert not torch.equal(shard0, shard1)  # each rank really saved its own shard


def test_torch_and_tyr_optimizers_type_check_as_checkpoint_state(tmp_path: Path) -> None:
    snippet = tmp_path / "trainer_types.py"
    snippet.write_text(
        "import torch\n"
        "from torch import nn\n"
        "from tyr.checkpoint import load_checkpoint, save_checkpoint\n"
        "from tyr.optim import AdamW, Muon, ShardedAdamW\n"
        "model = nn.Linear(2, 2)\n"
        "for opt in (torch.optim.AdamW(model.parameters()), AdamW(model), Muon(model), ShardedAdamW(model)):\n"
        "    path = save_checkpoint('run', step=1, model=model, optimizer=opt)\n"
        "    load_checkpoint(path, model=model, optimizer=opt)\n"
        "save_checkpoint('run', step=1, model=model, optimizer=model.state_dict())\n"
    )
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--config-file", "mypy.ini", str(snippet)],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    errors = result.stdout.splitlines()
    assert len(errors) == 1, result.stdout + result.stderr  # only the state dict passed as an optimizer
    assert ':9: error: Argument "optimizer" to "save_checkpoint" has incompatible type "dict[str, Any]"' in errors[0]
