"""Metrics logs survive crashes and resumes, and plot to a real PNG."""

from pathlib import Path

import pytest

from tyr.metrics import MetricsLog, plot_metrics, read_metrics


def test_log_read_and_resume_overwrites_repeated_steps(tmp_path: Path) -> None:
    path = tmp_path / "run" / "metrics.jsonl"
    with MetricsLog(path) as log:
        for step in range(5):
            log.log(step, train_loss=5.0 - step, lr=0.1)
    with MetricsLog(path) as log:  # a resumed run repeats steps 3 and 4
        log.log(3, train_loss=1.5)
        log.log(5, train_loss=0.5, val_loss=0.7, note="done")
    series = read_metrics(path)
    assert series["train_loss"] == {0: 5.0, 1: 4.0, 2: 3.0, 3: 1.5, 4: 1.0, 5: 0.5}
    assert series["val_loss"] == {5: 0.7}
    assert "note" not in series


def test_a_torn_last_line_is_ignored(tmp_path: Path) -> None:
    path = tmp_path / "metrics.jsonl"
    path.write_text('{"step": 0, "train_loss": 2.0}\n{"step": 1, "train_lo')
    assert read_metrics(path) == {"train_loss": {0: 2.0}}


def test_plot_writes_a_png(tmp_path: Path) -> None:
    path = tmp_path / "metrics.jsonl"
    with MetricsLog(path) as log:
        for step in range(10):
            log.log(step, train_loss=1 / (step + 1), val_loss=1.2 / (step + 1), lr=0.01 * step)
    out = plot_metrics(path, tmp_path / "curves.png", title="test")
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 5000


def test_plot_refuses_an_empty_log(tmp_path: Path) -> None:
    path = tmp_path / "metrics.jsonl"
    path.write_text("")
    with pytest.raises(ValueError, match="no numeric metrics"):
        plot_metrics(path, tmp_path / "x.png")
