"""Training runs that must agree: the same rows, the same random draws, the real trainer.

A run here is the trainer as users run it (`tyr.train.Trainer`: its DDP, ShardedAdamW or
DiLoCo, its clipping and schedule), fed fixed micro-batches instead of its loader. The
rows of a step are numbered globally: in a run of N ranks with A micro-batches each,
rank r's micro-batch a is number r * A + a, so one process with N * A micro-batches
sees exactly the rows that N ranks see together. Before each micro-batch the torch RNG
is seeded from its number, so a loss that draws (a diffusion model's masks) draws the
same on either side.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import torch

from tyr import Tensor, distributed
from tyr.data import Batch
from tyr.train import Task, TrainConfig, Trainer

B = TypeVar("B")
T = TypeVar("T")

FAMILIES = {"gpt": "scripts.train_gpt", "diffusion": "scripts.train_diffusion"}
"""Model families by name: the trainer module that runs each."""

NO_TASK = """\
{module} has no TASK: `tyr verify` builds a trainer's model from the module's `parse_args(argv)` (its
config) and `TASK` (the Task class it trains). Add, next to parse_args:

    TASK = MyTask
"""


def trainer_module(family: str) -> ModuleType:
    """The trainer module of a family name (`gpt`, `diffusion`) or a module path (`scripts.train_nanochat`)."""
    module = importlib.import_module(FAMILIES.get(family, family))
    if not hasattr(module, "TASK") or not hasattr(module, "parse_args"):
        raise SystemExit(NO_TASK.format(module=module.__name__))
    return module


def build(module: ModuleType, argv: Sequence[str], **overrides: Any) -> tuple[Task, TrainConfig]:
    """The task and config that `module`'s command line `argv` describes, with `overrides` applied."""
    config: TrainConfig = dataclasses.replace(module.parse_args(list(argv)), **overrides)
    task: Task = module.TASK(config)
    return task, config


def fixed_batch(number: int, step: int, config: TrainConfig, vocab_size: int) -> Batch[Any, Any]:
    """Micro-batch `number` of `step`: uniform random token ids, the same in every process."""
    generator = torch.Generator().manual_seed(config.seed * 1_000_003 + step * 4096 + number)
    rows: Tensor[Any, Any] = torch.randint(vocab_size, (config.batch_size, config.row_len + 1), generator=generator)
    return Batch(rows[:, :-1].contiguous(), rows[:, 1:].contiguous())  # as the loader gives them


def train_fixed(task: Task, config: TrainConfig, steps: int) -> dict[str, torch.Tensor]:
    """Train `steps` steps on fixed micro-batches (collective under torchrun); returns the parameters."""
    trainer = Trainer(task, dataclasses.replace(config, max_steps=steps))
    try:
        rank, accumulate = trainer.dist.rank, config.grad_accum
        for step in range(steps):
            numbers = [rank * accumulate + micro for micro in range(accumulate)]
            batches = [fixed_batch(n, step, config, trainer.train_loader.vocab_size) for n in numbers]
            seeded = _SeededBatches(batches, [config.seed + step * 4096 + n for n in numbers])
            trainer.train_step(seeded)
        return {name: p.detach().clone() for name, p in trainer.model.named_parameters()}
    finally:
        # the loaders only: the process group stays up for the next run in this process
        trainer.train_loader.close()
        trainer.val_loader.close()


class _SeededBatches(Sequence[Batch[Any, Any]]):
    """Micro-batches that seed the torch RNG as each is taken, so random draws follow the batch."""

    def __init__(self, batches: list[Batch[Any, Any]], seeds: list[int]) -> None:
        self.batches, self.seeds = batches, seeds

    def __len__(self) -> int:
        return len(self.batches)

    def __getitem__(self, index: Any) -> Any:
        torch.manual_seed(self.seeds[index])
        return self.batches[index]


def relative_difference(a: dict[str, torch.Tensor], b: dict[str, torch.Tensor]) -> float:
    """max |a - b| over all parameters, divided by max |b| (0: equal)."""
    if a.keys() != b.keys():
        raise ValueError(f"the runs have different parameters: {sorted(a.keys() ^ b.keys())}")
    diff = max(float((a[k].double() - b[k].double()).abs().max()) for k in a)
    scale = max(float(b[k].double().abs().max()) for k in b)
    return diff / max(scale, 1e-30)


def save(params: dict[str, torch.Tensor], path: Path) -> None:
    """Rank 0 writes the parameters (every rank holds the same ones after a synchronised run)."""
    if distributed.is_main():
        torch.save(params, path)
