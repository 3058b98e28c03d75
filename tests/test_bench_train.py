"""bench_train compares tyr's GPT with a plain-PyTorch one: both must run the same recipe for that to mean anything."""

from collections.abc import Iterator

import pytest
import torch

from benchmarks.baseline_gpt import BaselineConfig, BaselineTrainer
from benchmarks.bench_train import baseline_runner, batch, tyr_runner
from scripts.train_gpt import parse_args
from tyr.train import build_schedule


@pytest.fixture
def one_thread() -> Iterator[None]:
    """Small matrices on a shared machine: one thread is faster than two fighting over the cores."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def test_tyr_schedule_is_the_baselines_step_for_step() -> None:
    config = parse_args(["--data", "-", "--preset", "cpu"])
    schedule = build_schedule(config)
    baseline = BaselineTrainer(BaselineConfig())
    assert (config.lr, config.warmup_steps, config.max_steps) == (baseline.config.lr, 100, 2000)
    steps = range(config.max_steps + 1)
    expected = [baseline.lr(step) for step in steps]
    assert [config.lr * schedule(step) for step in steps] == pytest.approx(expected, rel=1e-12)


def test_tyr_and_baseline_from_the_same_weights_train_alike(one_thread: None) -> None:
    """The same batches give the same losses and weights, up to rounding (tyr's AdamW is torch's fused kernel)."""
    vocab_size, steps = 65, 12
    text = torch.randint(vocab_size, (4000,), generator=torch.Generator().manual_seed(0))
    tyr_side = tyr_runner("tyr", "cpu", steps, 0, vocab_size)
    base_side = baseline_runner(tyr_side, 0, vocab_size)
    start = {name: weight.clone() for name, weight in base_side.model.state_dict().items()}
    for _ in range(steps):
        x, y = batch(text, tyr_side)
        assert tyr_side.step(x, y).item() == pytest.approx(base_side.step(x, y).item(), abs=1e-5)
    trained = base_side.model.state_dict()
    for name, weight in tyr_side.model.state_dict().items():
        torch.testing.assert_close(weight, trained[name], rtol=0, atol=1e-5, msg=name)
    # not vacuous: every weight moved far more than that (decaying the gains too would be 6e-4 off by now)
    assert all((weight - start[name]).abs().max() > 1e-3 for name, weight in trained.items())
