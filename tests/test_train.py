"""The training core's pieces that need no model: the shared command line, schedules from it, thread choice."""

from dataclasses import dataclass
from typing import Literal

import pytest
import torch

from tyr.schedules import WarmupCosine, WarmupStableDecay
from tyr.data import CharTokenizer
from tyr.optim import Muon
from tyr.train import TrainConfig, build_optimizer, build_schedule, choose_threads, parse_config, text_nats
from tyr.train import threads as threads_module


@dataclass(frozen=True, kw_only=True)
class Extended(TrainConfig):
    mode: Literal["a", "b"] = "a"
    scale: float = 1.0


PRESETS = {"tiny": {"n_layer": 1, "scale": 2.0}, "cpu": {}}


def test_every_field_is_a_flag_and_flags_override_the_preset() -> None:
    config = parse_config(Extended, PRESETS, ["--data", "d", "--n-embd", "32", "--n-head", "2", "--mode", "b",
                                              "--compile", "--seq-len", "16"])  # fmt: skip
    assert (config.n_layer, config.scale, config.n_embd, config.mode, config.compile) == (1, 2.0, 32, "b", True)
    assert (config.block_size, config.row_len) == (64, 16)
    assert parse_config(Extended, PRESETS, ["--data", "d", "--preset", "cpu"]).n_layer == 4


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--preset", "huge"], "argument --preset: invalid choice: 'huge'"),
        (["--mode", "c"], "argument --mode: invalid choice: 'c'"),
        (["--n-layer", "two"], "argument --n-layer: invalid int value: 'two'"),
        (["--seq-len", "128"], "--seq-len 128 is longer than the model's context, --block-size 64"),
        (["--n-embd", "100", "--n-head", "3"], "n_embd % n_head = 100 % 3 = 1"),
        (["--batch-size", "0"], "batch_size must be at least 1, got 0"),
    ],
)
def test_bad_arguments_exit_with_a_clear_message(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        parse_config(Extended, PRESETS, ["--data", "d", *argv])
    assert exit.value.code == 2
    assert message in capsys.readouterr().err


def test_schedules_from_the_config() -> None:
    cosine = build_schedule(TrainConfig(data="d", max_steps=50))  # warmup 100 is cut to the run's length
    assert isinstance(cosine, WarmupCosine) and cosine.warmup_steps == 50
    wsd = build_schedule(TrainConfig(data="d", schedule="wsd", max_steps=1100, warmup_steps=100, decay_fraction=0.3))
    assert isinstance(wsd, WarmupStableDecay) and wsd.decay_steps == 300 and wsd(500) == 1.0


@pytest.fixture
def restore_threads() -> object:
    before = torch.get_num_threads()
    yield
    torch.set_num_threads(before)


@pytest.mark.parametrize(
    ("cores", "processes", "load", "expected"),
    [(2, 1, 0.0, 2), (2, 2, 0.0, 1), (8, 2, 0.5, 4), (2, 1, 1.8, 1), (8, 1, 5.0, 3), (1, 4, 0.0, 1)],
)
def test_threads_are_cores_per_local_process_and_no_more_than_idle(
    monkeypatch: pytest.MonkeyPatch, restore_threads: object, cores: int, processes: int, load: float, expected: int
) -> None:
    monkeypatch.setattr(threads_module, "usable_cores", lambda: cores)
    monkeypatch.setattr(threads_module, "load_average", lambda: load)
    monkeypatch.setenv("LOCAL_WORLD_SIZE", str(processes))
    chosen, why = choose_threads()
    assert chosen == expected == torch.get_num_threads()
    assert f"{cores} cores / {processes} process" in why
    assert ("load average" in why) == (expected < max(1, cores // processes))


def test_threads_as_asked(restore_threads: object) -> None:
    assert choose_threads(3) == (3, "3 torch threads per process (as asked by --threads)")
    assert torch.get_num_threads() == 3


def test_bits_per_byte_by_hand() -> None:
    tok = CharTokenizer.train(["aé"])  # ids: a 0, é 1, BOS 2; é is 2 bytes in UTF-8
    targets = torch.tensor([[0, 1, 2], [2, 1, 1]])
    nats = torch.tensor([[1.0, 2.0, 3.0], [4.0, 0.5, 0.25]])
    text, n_bytes = text_nats(nats, targets, torch.from_numpy(tok.token_bytes()))
    assert (text.item(), n_bytes.item()) == (1.0 + 2.0 + 0.5 + 0.25, 1 + 2 + 2 + 2)  # BOS: neither nats nor bytes
    # 3.75 nats over 7 bytes: 3.75 / (7 ln 2) = 0.77287 bits per byte
    assert text.item() / (n_bytes.item() * 0.6931471805599453) == pytest.approx(0.772872, abs=1e-6)


def test_muon_groups_by_role_with_their_rates() -> None:
    model = torch.nn.ModuleDict({"wte": torch.nn.Embedding(5, 4), "body": torch.nn.Linear(4, 4),
                                 "lm_head": torch.nn.Linear(4, 5, bias=False)})  # fmt: skip
    config = TrainConfig(data="d", optimizer="muon", lr=1e-3, muon_lr=0.05, embedding_lr=0.3, scalar_lr=0.5,
                         muon_momentum_warmup=7)  # fmt: skip
    optimizer = build_optimizer(model, config)
    assert isinstance(optimizer, Muon)
    groups = {g["role"]: ([n for n in g["param_names"]], g["lr"]) for g in optimizer.param_groups}
    assert groups == {"matrix": (["body.weight"], 0.05), "embedding": (["wte.weight"], 0.3),
                      "head": (["lm_head.weight"], 1e-3), "scalar": (["body.bias"], 0.5)}  # fmt: skip
    assert optimizer.param_groups[0]["momentum_warmup"] == 7
