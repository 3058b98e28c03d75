"""Run under torchrun (2 ranks, gloo): ShardedAdamW against all-reduce + AdamW.

Usage: python -m torch.distributed.run --standalone --nproc_per_node 2 tests/dist/sharded_adam.py OUT_DIR

Each rank trains two identical copies of a small model on its own batches:
the reference all-reduces the mean gradient and steps an unsharded optimizer,
the other steps ShardedAdamW. Rank r writes OUT_DIR/rank{r}.json with what the
test checks.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import torch
import torch.distributed as dist
from torch import nn

from tyr import distributed
from tyr.optim import AdamW, ShardedAdamW, clip_grad_norm_
from tyr.distributed import run_worker

STEPS = 6


def make_model() -> nn.Module:
    torch.manual_seed(0)  # same weights on every rank
    # Matrices 5*7 + 7*2 = 49 elements, vectors 7 + 7 + 7 + 2 = 23: odd sizes exercise the padding.
    return nn.Sequential(nn.Linear(5, 7), nn.LayerNorm(7), nn.Tanh(), nn.Linear(7, 2))


def groups(model: nn.Module) -> list[dict[str, object]]:
    decay = [(n, p) for n, p in model.named_parameters() if p.dim() == 2]
    no_decay = [(n, p) for n, p in model.named_parameters() if p.dim() < 2]
    return [{"params": decay, "weight_decay": 0.1}, {"params": no_decay, "weight_decay": 0.0}]


def backward(model: nn.Module, rank: int, step: int) -> None:
    generator = torch.Generator().manual_seed(1000 * step + rank)  # different data per rank
    x = torch.randn(8, 5, generator=generator)
    y = torch.randn(8, 2, generator=generator)
    nn.functional.mse_loss(model(x), y).backward()


def mean_grads(model: nn.Module, world: int) -> None:
    for param in model.parameters():
        assert param.grad is not None
        dist.all_reduce(param.grad, op=dist.ReduceOp.SUM)
        param.grad.div_(world)


def compare(clip: float | None, reference_kind: str) -> dict[str, object]:
    rank, world = distributed.rank(), distributed.world_size()
    reference = make_model()
    sharded = copy.deepcopy(reference)
    if reference_kind == "torch":
        ref_opt: torch.optim.Optimizer = torch.optim.AdamW(groups(reference), lr=0.05, foreach=False)
    else:
        ref_opt = AdamW(groups(reference), lr=0.05)
    opt = ShardedAdamW(groups(sharded), lr=0.05, max_grad_norm=clip)
    max_diff, all_equal, norm_diff = 0.0, True, 0.0
    for step in range(STEPS):
        for model in (reference, sharded):
            model.zero_grad()
            backward(model, rank, step)
        mean_grads(reference, world)
        if clip is not None:
            ref_norm = clip_grad_norm_(reference, clip)
        ref_opt.step()
        opt.step()
        if clip is not None:
            assert opt.last_grad_norm is not None
            norm_diff = max(norm_diff, abs(ref_norm.item() - opt.last_grad_norm.item()))
        for a, b in zip(reference.parameters(), sharded.parameters()):
            all_equal &= torch.equal(a, b)
            max_diff = max(max_diff, (a - b).abs().max().item())
    state = opt.state_dict()
    moved = max((a - b).abs().max().item() for a, b in zip(make_model().parameters(), sharded.parameters()))
    return {
        "equal": all_equal,
        "max_diff": max_diff,
        "norm_diff": norm_diff,
        "moved": moved,
        "shard_sizes": [int(s["exp_avg"].numel()) for s in state["state"].values()],
        "group_sizes": state["sharding"]["numel"],
    }


def resume() -> dict[str, object]:
    """Stop after 3 steps, rebuild the optimizer from state_dict, go on: equal to not stopping."""
    rank = distributed.rank()
    straight, stopped = make_model(), make_model()
    opt_straight = ShardedAdamW(groups(straight), lr=0.05)
    opt_stopped = ShardedAdamW(groups(stopped), lr=0.05)
    for step in range(STEPS):
        if step == 3:
            saved = copy.deepcopy(opt_stopped.state_dict())
            opt_stopped = ShardedAdamW(groups(stopped), lr=123.0)  # lr comes back from the state
            opt_stopped.load_state_dict(saved)
        for model, opt in ((straight, opt_straight), (stopped, opt_stopped)):
            model.zero_grad()
            backward(model, rank, step)
            opt.step()
    return {"equal": all(torch.equal(a, b) for a, b in zip(straight.parameters(), stopped.parameters()))}


def main() -> None:
    out = Path(sys.argv[1])
    info = distributed.init_from_env()
    results = {
        "world_size": info.world_size,
        "torch_adamw": compare(None, "torch"),
        "tyr_adamw": compare(None, "tyr"),
        "clipped": compare(0.05, "tyr"),
        "resume": resume(),
    }
    (out / f"rank{info.rank}.json").write_text(json.dumps(results))
    distributed.destroy()


if __name__ == "__main__":
    run_worker(main)
