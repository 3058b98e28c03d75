"""Training metrics: one JSON line per record, flushed as written, and plots of the curves.

A run's `metrics.jsonl` survives a crash up to the last finished step, and a
resumed run appends to it; `plot_metrics` draws every numeric series against
the step (later records for a step replace earlier ones, so a resumed run
draws one clean curve).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any


class MetricsLog:
    """Append-only JSONL log of `{"step": int, name: value, ...}` records."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file: IO[str] = self.path.open("a", encoding="utf-8")

    def log(self, step: int, **values: float | int | str) -> None:
        record: dict[str, Any] = {"step": step, **values}
        self._file.write(json.dumps(record) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()

    def __enter__(self) -> MetricsLog:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def read_metrics(path: str | os.PathLike[str]) -> dict[str, dict[int, float]]:
    """Series name -> {step: value}; a torn last line (a crash mid-write) is ignored."""
    series: dict[str, dict[int, float]] = {}
    with Path(path).open(encoding="utf-8") as file:
        for line in file:
            try:
                record: Mapping[str, Any] = json.loads(line)
            except json.JSONDecodeError:
                continue
            step = int(record["step"])
            for name, value in record.items():
                if name != "step" and isinstance(value, (int, float)) and math.isfinite(value):
                    series.setdefault(name, {})[step] = float(value)
    return series


def plot_metrics(path: str | os.PathLike[str], out: str | os.PathLike[str], title: str = "") -> Path:
    """Draw every series of a metrics log (losses on one panel, the rest on their own) to a PNG."""
    import matplotlib

    matplotlib.use("Agg")  # no screen needed
    import matplotlib.pyplot as plt

    series = read_metrics(path)
    losses = {n: s for n, s in series.items() if "loss" in n}
    others = {n: s for n, s in series.items() if "loss" not in n}
    panels = ([losses] if losses else []) + [{n: s} for n, s in sorted(others.items())]
    if not panels:
        raise ValueError(f"{path} has no numeric metrics to plot")
    figure, axes = plt.subplots(len(panels), 1, figsize=(8, 3 * len(panels)), squeeze=False)
    for axis, panel in zip(axes[:, 0], panels):
        for name, points in sorted(panel.items()):
            steps = sorted(points)
            axis.plot(steps, [points[s] for s in steps], label=name)
        axis.set_xlabel("step")
        axis.legend()
        axis.grid(alpha=0.3)
    if title:
        figure.suptitle(title)
    figure.tight_layout()
    out_path = Path(out)
    figure.savefig(out_path, dpi=100)
    plt.close(figure)
    return out_path
