"""DiLoCo in one process: rounds, fragments, the outer step's arithmetic, rollback, its checkpoint state.

The multi-process equalities (DiLoCo H=1 == DDP) run in `tyr verify` (tests/test_verify.py);
killing a DiLoCo worker mid-round is in tests/test_elastic.py.
"""

import copy
from typing import Any

import pytest
import torch
from torch import nn

from tyr.optim import DiLoCo
from tyr.optim.diloco import split_evenly


def model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 3))


def train(net: nn.Module, optimizer: torch.optim.Optimizer, diloco: DiLoCo | None, steps: int) -> None:
    generator = torch.Generator().manual_seed(1)
    for step in range(steps):
        x = torch.randn(16, 4, generator=generator)
        optimizer.zero_grad()
        net(x).pow(2).mean().backward()
        optimizer.step()
        if diloco is not None:
            diloco.step(final=step == steps - 1)


def test_fragments_are_consecutive_about_equal_and_never_empty() -> None:
    params = [nn.Parameter(torch.zeros(n)) for n in (100, 1, 1, 50, 50, 100)]
    for count in range(1, 7):
        parts = split_evenly(params, count)
        assert [p for part in parts for p in part] == params and all(parts)
        assert len(parts) == count
    assert [sum(p.numel() for p in part) for part in split_evenly(params, 2)] == [152, 150]
    with pytest.raises(ValueError, match="fragments must be between 1 and the 6 parameter tensors, got 7"):
        split_evenly(params, 7)


def test_one_worker_with_outer_lr_1_and_no_momentum_is_the_inner_optimizer() -> None:
    plain, wrapped = model(), model()
    train(plain, torch.optim.AdamW(plain.parameters(), lr=0.01), None, 9)
    inner = torch.optim.AdamW(wrapped.parameters(), lr=0.01)
    diloco = DiLoCo(wrapped, inner, steps=3, outer_lr=1.0, outer_momentum=0.0)
    train(wrapped, inner, diloco, 9)
    assert diloco.rounds == 3
    for a, b in zip(plain.parameters(), wrapped.parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-6)


def test_the_outer_step_is_nesterov_sgd_on_the_pseudo_gradient() -> None:
    net = model()
    start = [p.detach().clone() for p in net.parameters()]
    inner = torch.optim.SGD(net.parameters(), lr=0.1)
    diloco = DiLoCo(net, inner, steps=4, outer_lr=0.7, outer_momentum=0.9)
    train(net, inner, None, 4)  # four inner steps, then the round by hand
    local = [p.detach().clone() for p in net.parameters()]
    for _ in range(3):
        diloco.step()
    assert diloco.rounds == 0
    diloco.step()
    assert (diloco.rounds, diloco.bytes_reduced) == (1, 4 * sum(p.numel() for p in net.parameters()))
    for s, l, p in zip(start, local, net.parameters()):
        pseudo = s - l
        momentum = pseudo  # the first step's buffer
        torch.testing.assert_close(p.detach(), s - 0.7 * (pseudo + 0.9 * momentum))


def test_streaming_fragments_synchronise_in_turn() -> None:
    net = model()
    inner = torch.optim.SGD(net.parameters(), lr=0.1)
    diloco = DiLoCo(net, inner, steps=4, fragments=2)
    synced = [diloco.step() for _ in range(8)]
    assert synced == [False, True, False, True] * 2  # fragment 0 at 2, 6; fragment 1 at 4, 8
    assert diloco.rounds == 4
    assert diloco.bytes_reduced == 2 * 4 * sum(p.numel() for p in net.parameters())


def test_a_failed_round_is_rolled_back_to_its_start() -> None:
    net = model()
    start = [p.detach().clone() for p in net.parameters()]
    inner = torch.optim.SGD(net.parameters(), lr=0.1)
    diloco = DiLoCo(net, inner, steps=2, average=lambda flat: False)
    train(net, inner, diloco, 2)
    assert (diloco.rounds, diloco.rolled_back) == (0, 1)
    for s, p in zip(start, net.parameters()):
        assert torch.equal(s, p.detach())


def test_state_dict_resumes_mid_round_exactly() -> None:
    net = model()
    inner = torch.optim.AdamW(net.parameters(), lr=0.01)
    diloco = DiLoCo(net, inner, steps=4, fragments=2)
    train(net, inner, diloco, 6)
    state = copy.deepcopy(diloco.state_dict())
    twin = model()
    twin_inner = torch.optim.AdamW(twin.parameters(), lr=0.01)
    twin_diloco = DiLoCo(twin, twin_inner, steps=4, fragments=2)
    twin_diloco.load_state_dict(state)
    for a, b in zip(net.parameters(), twin.parameters()):
        assert torch.equal(a, b)
    train(net, inner, diloco, 5)
    train(twin, twin_inner, twin_diloco, 5)
    for a, b in zip(net.parameters(), twin.parameters()):
        assert torch.equal(a, b)
    with pytest.raises(ValueError, match="resume with the same model and --diloco-fragments"):
        DiLoCo(model(), torch.optim.SGD(model().parameters(), lr=0.1), steps=4, fragments=1).load_state_dict(state)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"steps": 0}, r"steps \(H, inner steps per round\) must be >= 1, got 0"),
        ({"steps": 2, "fragments": 3}, r"fragments must be between 1 and steps \(H = 2\)"),
        ({"steps": 2, "outer_momentum": 1.0}, "0 <= outer_momentum < 1, got 0.7, 1.0"),
    ],
)
def test_bad_settings_are_named(settings: dict[str, Any], message: str) -> None:
    net = model()
    with pytest.raises(ValueError, match=message):
        DiLoCo(net, torch.optim.SGD(net.parameters(), lr=0.1), **settings)
