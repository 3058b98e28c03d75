"""Two real ranks reading one dataset; run by tests/test_data_distributed.py.

    python -m torch.distributed.run --nproc_per_node 2 --master_addr 127.0.0.1 \
        --master_port PORT tests/dist/data_ranks.py DATASET OUT

Each rank initialises gloo, lets `TokenLoader` find its rank from torch.distributed, and
writes OUT/rank{r}.json with:
    rank, world_size, streams    what the loader saw
    steps                        rows of 12 random-order batches (batch_size 3, 4 streams)
    state                        the loader state after those batches
    epoch                        rows of one full sequential epoch (batch_size 4, epochs=1)
    epoch_counts                 every rank's number of epoch batches (all-gathered)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import torch
import torch.distributed as dist

from tyr.data import Batch, TokenLoader
from tyr.distributed import run_worker


def rows(batch: Batch[Any, Any]) -> list[list[int]]:
    rows: list[list[int]] = torch.cat([batch.inputs, batch.targets[:, -1:]], dim=1).tolist()
    return rows


def main() -> None:
    dataset, out = sys.argv[1], Path(sys.argv[2])
    dist.init_process_group("gloo")
    rank = dist.get_rank()

    loader = TokenLoader(dataset, batch_size=3, seq_len=16, streams=4)
    steps = [rows(next(loader)) for _ in range(12)]
    state = loader.state_dict()
    loader.close()

    with TokenLoader(dataset, batch_size=4, seq_len=16, streams=4, order="sequential", epochs=1) as epoch_loader:
        epoch = [rows(batch) for batch in epoch_loader]
    counts: list[object] = [None] * dist.get_world_size()
    dist.all_gather_object(counts, len(epoch))

    result = {
        "rank": rank,
        "world_size": loader.world_size,
        "streams": loader.streams,
        "steps": steps,
        "state": state,
        "epoch": epoch,
        "epoch_counts": counts,
    }
    (out / f"rank{rank}.json").write_text(json.dumps(result))
    dist.barrier()
    dist.destroy_process_group()


if __name__ == "__main__":
    run_worker(main)
