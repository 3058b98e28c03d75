"""tyr.optim.AdamW against torch.optim.AdamW, its state dict, and what it accepts."""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn

from tyr.optim import AdamW, weight_decay_groups


def make_model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(6, 8), nn.LayerNorm(8), nn.GELU(), nn.Linear(8, 3))


def groups(model: nn.Module) -> list[dict[str, object]]:
    matrices = [p for p in model.parameters() if p.dim() == 2]
    vectors = [p for p in model.parameters() if p.dim() < 2]
    return [
        {"params": matrices, "weight_decay": 0.1},
        {"params": vectors, "weight_decay": 0.0, "lr": 3e-3},
    ]


def train(model: nn.Module, opt: torch.optim.Optimizer, steps: range) -> None:
    for step in steps:
        generator = torch.Generator().manual_seed(step)
        x, y = torch.randn(16, 6, generator=generator), torch.randn(16, 3, generator=generator)
        opt.zero_grad()
        nn.functional.mse_loss(model(x), y).backward()
        if step % 3 == 2:  # a parameter without a gradient is skipped by both optimizers
            model[3].bias.grad = None
        opt.step()


def test_bit_identical_to_torch_adamw() -> None:
    ours, theirs = make_model(), make_model()
    opt = AdamW(groups(ours), lr=1e-2, betas=(0.9, 0.95), eps=1e-8)
    reference = torch.optim.AdamW(groups(theirs), lr=1e-2, betas=(0.9, 0.95), eps=1e-8, foreach=False)
    train(ours, opt, range(12))
    train(theirs, reference, range(12))
    for a, b in zip(ours.parameters(), theirs.parameters()):
        assert torch.equal(a, b)
    for a, b in zip(ours.parameters(), theirs.parameters()):
        assert torch.equal(opt.state[a]["exp_avg_sq"], reference.state[b]["exp_avg_sq"])
        assert opt.state[a]["step"] == int(reference.state[b]["step"])
    assert ours[0].weight.ne(make_model()[0].weight).any()  # it did train


def test_close_to_torch_adamw_foreach() -> None:
    ours, theirs = make_model(), make_model()
    train(ours, AdamW(ours, lr=1e-2), range(8))
    train(theirs, torch.optim.AdamW(theirs.parameters(), lr=1e-2, foreach=True), range(8))
    for a, b in zip(ours.parameters(), theirs.parameters()):
        torch.testing.assert_close(a, b, rtol=1e-5, atol=1e-6)


def test_state_dict_resume_is_exact() -> None:
    straight = make_model()
    train(straight, AdamW(straight, lr=1e-2), range(8))

    stopped = make_model()
    opt = AdamW(stopped, lr=1e-2)
    train(stopped, opt, range(4))
    saved = copy.deepcopy(opt.state_dict())
    fresh = AdamW(stopped, lr=0.5)  # the saved lr wins
    fresh.load_state_dict(saved)
    train(stopped, fresh, range(4, 8))
    for a, b in zip(straight.parameters(), stopped.parameters()):
        assert torch.equal(a, b)


def test_module_gives_named_trainable_parameters_tied_once() -> None:
    model = nn.Module()
    model.embed = nn.Embedding(5, 4)
    model.head = nn.Linear(4, 5, bias=False)
    model.head.weight = model.embed.weight
    model.frozen = nn.Linear(4, 4)
    model.frozen.requires_grad_(False)
    opt = AdamW(model)  # no duplicate-parameter warning (warnings are errors here)
    assert opt.param_groups[0]["param_names"] == ["embed.weight"]


def test_frozen_tensor_is_rejected_with_a_fix() -> None:
    frozen = nn.Parameter(torch.zeros(3), requires_grad=False)
    with pytest.raises(ValueError, match=r"parameter 1 of group 0 \(shape \(3,\)\) is frozen.*tree.Role.TRAINABLE"):
        AdamW([nn.Parameter(torch.zeros(2)), frozen])
    with pytest.raises(ValueError, match="parameter 'w' .* is frozen"):
        AdamW([("w", frozen)])
    with pytest.raises(ValueError, match="has no trainable parameters"):
        AdamW(nn.Linear(2, 2).requires_grad_(False))


def test_load_state_dict_names_what_differs() -> None:
    small, large = nn.Linear(3, 2), nn.Linear(3, 4)
    opt = AdamW(small)
    small(torch.ones(1, 3)).sum().backward()
    opt.step()
    other = AdamW(large)
    with pytest.raises(ValueError, match=r"state 'exp_avg' of parameter 'weight' has shape \(2, 3\) but the parameter has shape \(4, 3\)"):
        other.load_state_dict(opt.state_dict())
    renamed = AdamW([("w", large.weight), ("b", large.bias)])
    with pytest.raises(ValueError, match=r"group 0 holds different parameters \(saved only: \['weight', 'bias'\]; here only: \['w', 'b'\]\)"):
        renamed.load_state_dict(opt.state_dict())
    two_groups = AdamW([{"params": [large.weight]}, {"params": [large.bias]}])
    with pytest.raises(ValueError, match="the saved state has 1 parameter groups, this optimizer has 2"):
        two_groups.load_state_dict(opt.state_dict())


def test_bad_hyperparameters() -> None:
    params = [nn.Parameter(torch.zeros(1))]
    with pytest.raises(ValueError, match="betas must each be in"):
        AdamW(params, betas=(0.9, 1.0))
    with pytest.raises(ValueError, match="lr must be >= 0"):
        AdamW(params, lr=-1.0)


def test_weight_decay_groups_decay_matrices_only() -> None:
    model = make_model()
    opt = AdamW(weight_decay_groups(model, weight_decay=0.5), lr=0.1)
    assert [g["param_names"] for g in opt.param_groups] == [["0.weight", "3.weight"], ["0.bias", "1.weight", "1.bias", "3.bias"]]
    assert [g["weight_decay"] for g in opt.param_groups] == [0.5, 0.0]
    for param in model.parameters():
        param.grad = torch.zeros_like(param)
    before = [p.detach().clone() for p in model.parameters()]
    opt.step()  # zero gradients: only the decay moves parameters
    for (name, param), old in zip(model.named_parameters(), before):
        assert torch.equal(param, old * (1 - 0.1 * 0.5)) if param.dim() == 2 else torch.equal(param, old), name


def test_fused_matches_the_one_tensor_at_a_time_update() -> None:
    ours, fused = make_model(), make_model()
    opt, fused_opt = AdamW(groups(ours), lr=1e-2, betas=(0.9, 0.95)), AdamW(groups(fused), lr=1e-2, betas=(0.9, 0.95), fused=True)
    train(ours, opt, range(12))  # (also: a parameter whose gradient is missing is skipped)
    train(fused, fused_opt, range(12))
    for a, b in zip(ours.parameters(), fused.parameters()):
        torch.testing.assert_close(a, b, rtol=1e-6, atol=1e-7)
        assert opt.state[a]["step"] == fused_opt.state[b]["step"] and isinstance(fused_opt.state[b]["step"], int)
    resumed = make_model()
    resumed.load_state_dict(fused.state_dict())
    again = AdamW(groups(resumed), lr=1e-2, betas=(0.9, 0.95))  # the state dicts are interchangeable
    again.load_state_dict(fused_opt.state_dict())
    assert again.state_dict()["state"].keys() == fused_opt.state_dict()["state"].keys()
