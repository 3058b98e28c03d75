"""Run under torchrun (2 ranks, gloo): exact resume of a sharded-optimizer run from a checkpoint.

Usage:
    python -m torch.distributed.run --standalone --nproc_per_node 2 tests/dist/checkpoint_resume.py full RUN_DIR OUT_DIR
    python -m torch.distributed.run --standalone --nproc_per_node 2 tests/dist/checkpoint_resume.py resume RUN_DIR OUT_DIR

``full`` trains STEPS steps and saves a checkpoint after SAVE_AT of them; ``resume``
starts from that checkpoint in fresh processes and trains to STEPS. Each rank writes
its parameters and optimizer shard to OUT_DIR/{mode}_rank{r}.safetensors.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import numpy as np
import safetensors.torch
import torch
from torch import nn

from tyr import distributed
from tyr.checkpoint import latest_checkpoint, load_checkpoint, save_checkpoint
from tyr.optim import ShardedAdamW
from tyr.schedules import LRScheduler, WarmupCosine
from tyr.distributed import run_worker

STEPS, SAVE_AT = 6, 3


class Loader:
    """Per-rank toy data: a generator and a position, both part of its state."""

    def __init__(self, rank: int) -> None:
        self.generator = torch.Generator().manual_seed(100 + rank)
        self.position = 0

    def next(self) -> tuple[torch.Tensor, torch.Tensor]:
        self.position += 1
        x = torch.randn(8, 6, generator=self.generator)
        return x, x.roll(1, dims=1)

    def state_dict(self) -> dict[str, Any]:
        return {"position": self.position, "generator": self.generator.get_state()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.position = state["position"]
        self.generator.set_state(state["generator"])


def build(seed: int) -> tuple[nn.Module, ShardedAdamW, LRScheduler, Loader]:
    torch.manual_seed(seed)
    model = nn.Sequential(nn.Linear(6, 16), nn.Dropout(0.2), nn.GELU(), nn.Linear(16, 6))
    optimizer = ShardedAdamW(model, lr=0.02, max_grad_norm=1.0)
    scheduler = LRScheduler(optimizer, WarmupCosine(warmup_steps=2, total_steps=STEPS))
    return model, optimizer, scheduler, Loader(distributed.rank())


def train_step(model: nn.Module, optimizer: ShardedAdamW, scheduler: LRScheduler, loader: Loader) -> None:
    x, y = loader.next()
    jitter = 1 + 0.01 * random.random() + 0.01 * float(np.random.rand())  # Python and NumPy RNGs
    optimizer.zero_grad()
    (nn.functional.mse_loss(model(x), y) * jitter).backward()  # dropout: torch RNG
    optimizer.step()
    scheduler.step()


def main() -> None:
    mode, run_dir, out = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
    info = distributed.init_from_env()
    # Same seeds on every rank except for the data, as a trainer would do.
    random.seed(1)
    np.random.seed(1)
    model, optimizer, scheduler, loader = build(seed=0)
    start = 0
    if mode == "resume":
        random.seed(999)  # scrambled: the checkpoint must restore every RNG
        np.random.seed(999)
        model, optimizer, scheduler, loader = build(seed=12345)
        path = latest_checkpoint(run_dir)
        assert path is not None, f"no checkpoint in {run_dir}"
        checkpoint = load_checkpoint(path, model=model, optimizer=optimizer)
        scheduler.load_state_dict(checkpoint.schedule_state)
        loader.load_state_dict(checkpoint.loader_state)
        assert checkpoint.extra == {"run": "dist-resume", "rank_count": info.world_size}
        start = checkpoint.step
    model.train()
    for step in range(start, STEPS):
        train_step(model, optimizer, scheduler, loader)
        if mode == "full" and step + 1 == SAVE_AT:
            save_checkpoint(
                run_dir,
                step=step + 1,
                model=model,
                optimizer=optimizer,
                schedule_state=scheduler.state_dict(),
                loader_state=loader.state_dict(),
                extra={"run": "dist-resume", "rank_count": info.world_size},
            )
    tensors = {f"param.{name}": p.detach().clone() for name, p in model.named_parameters()}
    for number, state in optimizer.state_dict()["state"].items():
        tensors[f"optimizer.{number}.exp_avg"] = state["exp_avg"].clone()
        tensors[f"optimizer.{number}.exp_avg_sq"] = state["exp_avg_sq"].clone()
    tensors["loader.position"] = torch.tensor(loader.position)
    tensors["rng.next"] = torch.rand(3)
    safetensors.torch.save_file(tensors, str(out / f"{mode}_rank{info.rank}.safetensors"))
    distributed.destroy()


if __name__ == "__main__":
    run_worker(main)
