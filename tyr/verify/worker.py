"""The multi-process half of `tyr verify`, run by it under torchrun (one process per rank).

    python -m torch.distributed.run --nproc_per_node N -m tyr.verify.worker OUT FAMILY STEPS [trainer flags]

Trains the same fixed micro-batches in each distributed mode that `tyr.verify.checks`
compares, one after another in one process group, and rank 0 writes OUT/<run>.pt.
"""

from __future__ import annotations

import sys
from pathlib import Path

from tyr import distributed
from tyr.verify.harness import build, save, train_fixed, trainer_module
from tyr.verify.runs import DISTRIBUTED_RUNS
from tyr.distributed import run_worker


def main() -> None:
    out, family, steps, argv = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4:]
    module = trainer_module(family)
    for name, overrides in DISTRIBUTED_RUNS.items():
        task, config = build(module, argv, out=str(out / f"run_{name}"), **overrides)
        save(train_fixed(task, config, steps), out / f"{name}.pt")
    distributed.destroy()


if __name__ == "__main__":
    run_worker(main)
