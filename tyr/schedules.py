"""Learning-rate schedules as multipliers of each parameter group's peak rate.

A schedule maps the optimizer step (0, 1, 2, ...) to a multiplier in [0, 1];
:class:`LRScheduler` sets ``group["lr"] = group["initial_lr"] * multiplier`` for
every group of one or more optimizers, so Muon and AdamW groups with different
peak rates follow the same shape.

- :class:`WarmupCosine`: linear warmup, then cosine decay to ``final_ratio``.
- :class:`WarmupStableDecay` (WSD): linear warmup, a flat stretch at 1, then a
  decay to ``final_ratio`` over the last ``decay_steps`` steps.

Example::

    schedule = WarmupCosine(warmup_steps=100, total_steps=5000, final_ratio=0.1)
    scheduler = LRScheduler(optimizer, schedule)
    for step in range(scheduler.step_count, 5000):
        ...; optimizer.step(); scheduler.step()
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any, Literal, Protocol

import torch


class Schedule(Protocol):
    """A learning-rate shape: ``schedule(step) -> multiplier``."""

    def __call__(self, step: int) -> float: ...


def _warmup(step: int, warmup_steps: int) -> float:
    # Step 0 already trains, so warmup reaches 1 at step warmup_steps - 1.
    return (step + 1) / warmup_steps


@dataclasses.dataclass(frozen=True, kw_only=True)
class WarmupCosine:
    """Linear warmup to 1, then half a cosine down to ``final_ratio``.

    Args:
        warmup_steps: steps of linear warmup; the multiplier at step ``s < warmup_steps``
            is ``(s + 1) / warmup_steps``. May be 0.
        total_steps: the cosine reaches ``final_ratio`` at this step and stays there.
        final_ratio: the last multiplier, a fraction of the peak. Default 0.
    """

    warmup_steps: int
    total_steps: int
    final_ratio: float = 0.0

    def __post_init__(self) -> None:
        _validate(self.warmup_steps, self.total_steps, self.final_ratio)

    def __call__(self, step: int) -> float:
        if step < self.warmup_steps:
            return _warmup(step, self.warmup_steps)
        progress = min(1.0, (step - self.warmup_steps) / max(1, self.total_steps - self.warmup_steps))
        return self.final_ratio + (1 - self.final_ratio) * 0.5 * (1 + math.cos(math.pi * progress))


@dataclasses.dataclass(frozen=True, kw_only=True)
class WarmupStableDecay:
    """Warmup–stable–decay: linear warmup to 1, flat at 1, then down to ``final_ratio``.

    Args:
        warmup_steps: steps of linear warmup (as in :class:`WarmupCosine`). May be 0.
        total_steps: the decay ends at this step; the multiplier stays at ``final_ratio`` after.
        decay_steps: length of the final decay, from ``total_steps - decay_steps``.
        final_ratio: the last multiplier. Default 0.
        shape: ``"linear"`` (default) or ``"cosine"`` decay.
    """

    warmup_steps: int
    total_steps: int
    decay_steps: int
    final_ratio: float = 0.0
    shape: Literal["linear", "cosine"] = "linear"

    def __post_init__(self) -> None:
        _validate(self.warmup_steps, self.total_steps, self.final_ratio)
        if not 0 <= self.decay_steps <= self.total_steps - self.warmup_steps:
            raise ValueError(
                f"WarmupStableDecay: decay_steps={self.decay_steps} must be in [0, total_steps - "
                f"warmup_steps] = [0, {self.total_steps} - {self.warmup_steps}] so the decay "
                "starts after warmup."
            )
        if self.shape not in ("linear", "cosine"):
            raise ValueError(f"WarmupStableDecay: shape must be 'linear' or 'cosine', got {self.shape!r}.")

    def __call__(self, step: int) -> float:
        if step < self.warmup_steps:
            return _warmup(step, self.warmup_steps)
        decay_start = self.total_steps - self.decay_steps
        if step < decay_start:
            return 1.0
        progress = min(1.0, (step - decay_start) / max(1, self.decay_steps))
        if self.shape == "linear":
            fraction_left = 1 - progress
        else:
            fraction_left = 0.5 * (1 + math.cos(math.pi * progress))
        return self.final_ratio + (1 - self.final_ratio) * fraction_left


def _validate(warmup_steps: int, total_steps: int, final_ratio: float) -> None:
    if not 0 <= warmup_steps <= total_steps:
        raise ValueError(
            f"schedule: need 0 <= warmup_steps <= total_steps, got warmup_steps={warmup_steps}, "
            f"total_steps={total_steps}."
        )
    if not 0.0 <= final_ratio <= 1.0:
        raise ValueError(f"schedule: final_ratio is a fraction of the peak rate in [0, 1], got {final_ratio}.")


def _describe(schedule: Schedule) -> dict[str, Any]:
    described: dict[str, Any] = {"kind": type(schedule).__name__}
    instance: object = schedule  # (mypy cannot intersect the protocol with a dataclass)
    if dataclasses.is_dataclass(instance):
        for field in dataclasses.fields(instance):
            described[field.name] = getattr(instance, field.name)
    return described


class LRScheduler:
    """Applies a :class:`Schedule` to the parameter groups of one or more optimizers.

    Args:
        optimizers: an optimizer or a sequence of them.
        schedule: the multiplier per step.

    On construction every group's current ``"lr"`` becomes its ``"initial_lr"``
    (unless a group already has one) and the rate for step 0 is applied. Call
    :meth:`step` after each ``optimizer.step()``. The position is
    :attr:`step_count`, saved and restored with :meth:`state_dict` /
    :meth:`load_state_dict` (load the optimizer first: its state holds the lrs).
    """

    def __init__(
        self, optimizers: torch.optim.Optimizer | Sequence[torch.optim.Optimizer], schedule: Schedule
    ) -> None:
        self.optimizers = [optimizers] if isinstance(optimizers, torch.optim.Optimizer) else list(optimizers)
        self.schedule = schedule
        self.step_count = 0
        for optimizer in self.optimizers:
            for group in optimizer.param_groups:
                group.setdefault("initial_lr", group["lr"])
        self._apply()

    @property
    def multiplier(self) -> float:
        """The multiplier at the current step."""
        return self.schedule(self.step_count)

    def _apply(self) -> None:
        multiplier = self.multiplier
        for optimizer in self.optimizers:
            for group in optimizer.param_groups:
                group["lr"] = group["initial_lr"] * multiplier

    def step(self) -> None:
        """Advance one step and set every group's lr for it."""
        self.step_count += 1
        self._apply()

    def state_dict(self) -> dict[str, Any]:
        """``{"step": n, "schedule": {"kind": ..., fields...}}``, JSON-able."""
        return {"step": self.step_count, "schedule": _describe(self.schedule)}

    def load_state_dict(self, state: Mapping[str, Any], *, strict: bool = True) -> None:
        """Restore the position and re-apply the lr for it.

        Args:
            state: :meth:`state_dict` output.
            strict: raise when the saved schedule differs from this one (resuming
                with another schedule does not reproduce the run). Default True.
        """
        saved, current = state.get("schedule"), _describe(self.schedule)
        if strict and saved != current:
            raise ValueError(
                f"LRScheduler.load_state_dict: the checkpoint was written with schedule {saved}, "
                f"this run uses {current}. Construct the same schedule to resume exactly, or pass "
                "strict=False to continue with the new one."
            )
        self.step_count = int(state["step"])
        self._apply()
