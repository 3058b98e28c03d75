"""The runs `tyr verify` compares, as overrides of the user's trainer config."""

from __future__ import annotations

from typing import Any

LINEAR = {"optimizer": "sgd", "grad_clip": 0.0}
"""DiLoCo equals DDP only for an inner optimizer linear in the gradient, and without per-rank clipping."""

DISTRIBUTED_RUNS: dict[str, dict[str, Any]] = {
    "ddp": {"diloco_steps": 0, "optimizer": "adamw"},
    "sharded": {"diloco_steps": 0, "optimizer": "sharded"},
    "ddp_sgd": {"diloco_steps": 0, **LINEAR},
    "diloco": {"diloco_steps": 1, "outer_lr": 1.0, "outer_momentum": 0.0, "diloco_fragments": 1, **LINEAR},
}
"""Runs made on N ranks by `tyr.verify.worker`, by name."""
