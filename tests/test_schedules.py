"""Warmup + cosine, warmup–stable–decay, and LRScheduler's state."""

from __future__ import annotations

import math

import pytest
import torch
from torch import nn

from tyr.optim import Muon
from tyr.schedules import LRScheduler, WarmupCosine, WarmupStableDecay


def test_warmup_cosine_values() -> None:
    schedule = WarmupCosine(warmup_steps=4, total_steps=14, final_ratio=0.1)
    assert [schedule(s) for s in range(4)] == [0.25, 0.5, 0.75, 1.0]
    assert schedule(4) == 1.0  # the cosine starts at its peak
    assert math.isclose(schedule(9), 0.55)  # half way: (1 + final) / 2
    assert math.isclose(schedule(14), 0.1) and math.isclose(schedule(1000), 0.1)
    after = [schedule(s) for s in range(4, 20)]
    assert all(b <= a for a, b in zip(after, after[1:]))


def test_warmup_cosine_without_warmup() -> None:
    schedule = WarmupCosine(warmup_steps=0, total_steps=10)
    assert schedule(0) == 1.0 and math.isclose(schedule(5), 0.5) and schedule(10) == 0.0


def test_warmup_stable_decay_values() -> None:
    schedule = WarmupStableDecay(warmup_steps=2, total_steps=12, decay_steps=4, final_ratio=0.0)
    values = [schedule(s) for s in range(14)]
    assert values[:2] == [0.5, 1.0]
    assert values[2:8] == [1.0] * 6  # stable until total - decay = 8
    assert values[8:13] == [1.0, 0.75, 0.5, 0.25, 0.0]
    assert values[13] == 0.0
    cosine = WarmupStableDecay(warmup_steps=0, total_steps=10, decay_steps=4, final_ratio=0.2, shape="cosine")
    assert cosine(6) == 1.0 and math.isclose(cosine(8), 0.6) and math.isclose(cosine(10), 0.2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: WarmupCosine(warmup_steps=5, total_steps=3), "need 0 <= warmup_steps <= total_steps"),
        (lambda: WarmupCosine(warmup_steps=0, total_steps=3, final_ratio=2.0), "final_ratio is a fraction"),
        (lambda: WarmupStableDecay(warmup_steps=5, total_steps=10, decay_steps=6), r"decay_steps=6 must be in \[0, total_steps - warmup_steps\] = \[0, 10 - 5\]"),
        (lambda: WarmupStableDecay(warmup_steps=0, total_steps=10, decay_steps=2, shape="sqrt"), "shape must be 'linear' or 'cosine'"),  # type: ignore[arg-type]
    ],
)
def test_invalid_schedules(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]


def test_scheduler_scales_every_group_of_every_optimizer() -> None:
    model = nn.Sequential(nn.Embedding(5, 4), nn.Linear(4, 4))
    muon = Muon(model, lr=0.02, adam_lr=0.001)
    sgd = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=0.5)
    schedule = WarmupCosine(warmup_steps=2, total_steps=6)
    scheduler = LRScheduler([muon, sgd], schedule)
    for step in range(8):
        assert scheduler.step_count == step
        lrs = [g["lr"] for g in muon.param_groups] + [sgd.param_groups[0]["lr"]]
        assert lrs == [0.02 * schedule(step), 0.001 * schedule(step), 0.5 * schedule(step)]
        scheduler.step()


def test_scheduler_state_round_trip() -> None:
    schedule = WarmupStableDecay(warmup_steps=1, total_steps=10, decay_steps=3)
    opt = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1.0)
    scheduler = LRScheduler(opt, schedule)
    for _ in range(8):
        scheduler.step()
    state = scheduler.state_dict()
    assert state == {
        "step": 8,
        "schedule": {"kind": "WarmupStableDecay", "warmup_steps": 1, "total_steps": 10,
                     "decay_steps": 3, "final_ratio": 0.0, "shape": "linear"},
    }  # fmt: skip
    other = torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1.0)
    resumed = LRScheduler(other, schedule)
    resumed.load_state_dict(state)
    assert resumed.step_count == 8 and other.param_groups[0]["lr"] == opt.param_groups[0]["lr"] == schedule(8)

    changed = LRScheduler(torch.optim.SGD(nn.Linear(2, 2).parameters(), lr=1.0), WarmupCosine(warmup_steps=1, total_steps=10))
    with pytest.raises(ValueError, match="written with schedule .*WarmupStableDecay.* this run uses .*WarmupCosine.*strict=False"):
        changed.load_state_dict(state)
    changed.load_state_dict(state, strict=False)
    assert changed.step_count == 8
