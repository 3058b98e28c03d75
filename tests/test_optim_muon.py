"""Muon: Newton–Schulz orthogonalisation, the role split, the update, descent and resume."""

from __future__ import annotations

import copy

import pytest
import torch
from torch import nn

from tyr.optim import CUBIC, AdamW, Muon, muon_param_groups, orthogonalize


class TinyLM(nn.Module):
    def __init__(self, tied: bool = False) -> None:
        super().__init__()
        self.wte = nn.Embedding(11, 8)
        self.attn = nn.Linear(8, 8)
        self.mlp = nn.Sequential(nn.Linear(8, 16), nn.GELU(), nn.Linear(16, 8))
        self.norm = nn.LayerNorm(8)
        self.conv = nn.Conv1d(8, 8, 3, padding=1)  # 3-D weight: Muon on its (8, 24) view
        self.lm_head = nn.Linear(8, 11, bias=False)
        if tied:
            self.lm_head.weight = self.wte.weight

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        x = self.wte(idx)  # (B, T, C)
        x = x + self.attn(x)
        x = x + self.conv(x.transpose(1, 2)).transpose(1, 2)
        x = x + self.mlp(self.norm(x))
        return self.lm_head(x)


@pytest.mark.parametrize("shape", [(32, 64), (64, 32), (4, 16, 48)])
def test_quintic_puts_singular_values_near_one(shape: tuple[int, ...]) -> None:
    torch.manual_seed(0)
    matrix = torch.randn(*shape)
    singular = torch.linalg.svdvals(orthogonalize(matrix))
    assert singular.min() > 0.6 and singular.max() < 1.2, singular
    assert singular.shape == torch.linalg.svdvals(matrix).shape


@pytest.mark.parametrize("shape", [(16, 40), (40, 16)])
def test_cubic_converges_to_the_polar_factor(shape: tuple[int, int]) -> None:
    torch.manual_seed(1)
    matrix = torch.randn(*shape)
    u, _, vh = torch.linalg.svd(matrix, full_matrices=False)
    result = orthogonalize(matrix, steps=40, coefficients=CUBIC)
    torch.testing.assert_close(result, u @ vh, atol=1e-4, rtol=0)
    torch.testing.assert_close(torch.linalg.svdvals(result), torch.ones(16), atol=1e-4, rtol=0)


def test_orthogonalize_edge_cases() -> None:
    assert torch.equal(orthogonalize(torch.zeros(3, 5)), torch.zeros(3, 5))  # no nan from 0/0
    half = orthogonalize(torch.randn(8, 4, dtype=torch.bfloat16))
    assert half.dtype == torch.bfloat16
    with pytest.raises(ValueError, match=r"needs a matrix \(\.\.\., m, n\); got shape \(5,\)"):
        orthogonalize(torch.ones(5))


def test_split_by_role() -> None:
    model = TinyLM()
    model.norm.weight.requires_grad_(False)
    muon, adam = muon_param_groups(model)
    assert muon["use_muon"] and not adam["use_muon"]
    assert [name for name, _ in muon["params"]] == ["attn.weight", "mlp.0.weight", "mlp.2.weight", "conv.weight"]
    assert [name for name, _ in adam["params"]] == [
        "wte.weight", "attn.bias", "mlp.0.bias", "mlp.2.bias", "norm.bias", "conv.bias", "lm_head.weight",
    ]  # fmt: skip  (norm.weight is frozen: in no group)


def test_split_with_tied_head_and_custom_rule() -> None:
    tied = TinyLM(tied=True)
    _, adam = muon_param_groups(tied)
    names = [name for name, _ in adam["params"]]
    assert "wte.weight" in names and "lm_head.weight" not in names  # tied: once

    class Renamed(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.table = nn.Embedding(5, 4)  # an embedding by type, whatever its name
            self.body = nn.Linear(4, 4)
            self.classifier = nn.Linear(4, 3)

    muon, adam = muon_param_groups(Renamed(), is_adam=lambda name, p: name.startswith("classifier."))
    assert [n for n, _ in muon["params"]] == ["body.weight"]
    assert [n for n, _ in adam["params"]] == ["table.weight", "body.bias", "classifier.weight", "classifier.bias"]


def test_muon_group_rejects_vectors() -> None:
    with pytest.raises(ValueError, match=r"parameter 'b' of group 0 has shape \(4,\); Muon orthogonalises matrices only"):
        Muon([{"params": [("w", nn.Parameter(torch.ones(4, 4))), ("b", nn.Parameter(torch.ones(4)))]}])


def test_one_step_is_the_scaled_orthogonalised_gradient() -> None:
    torch.manual_seed(2)
    weight = nn.Parameter(torch.randn(12, 4))  # tall: scale sqrt(12 / 4)
    weight.grad = torch.randn(12, 4)
    before = weight.detach().clone()
    Muon([weight], lr=0.1, momentum=0.0, nesterov=False, weight_decay=0.5).step()
    expected = before * (1 - 0.1 * 0.5) - 0.1 * 3**0.5 * orthogonalize(weight.grad)
    torch.testing.assert_close(weight.detach(), expected, atol=1e-6, rtol=0)


def test_nesterov_momentum_direction() -> None:
    weight = nn.Parameter(torch.zeros(4, 4))
    opt = Muon([weight], lr=1.0, momentum=0.5, nesterov=True)
    first, second = torch.eye(4), torch.diag(torch.tensor([1.0, 2.0, 3.0, 4.0]))
    weight.grad = first
    opt.step()
    weight.grad = second
    before = weight.detach().clone()
    opt.step()
    buffer = (0.5 * first) * 0.5 + 0.5 * second  # two EMA updates from zero
    direction = second.lerp(buffer, 0.5)
    torch.testing.assert_close(weight.detach(), before - orthogonalize(direction), atol=1e-6, rtol=0)


def test_adam_groups_match_adamw_bit_for_bit() -> None:
    torch.manual_seed(3)
    a, b = nn.Parameter(torch.randn(6)), nn.Parameter(torch.randn(6))
    with torch.no_grad():
        b.copy_(a)
    muon = Muon([{"params": [a], "use_muon": False}], adam_lr=0.01, adam_betas=(0.8, 0.9), adam_weight_decay=0.1)
    adamw = AdamW([b], lr=0.01, betas=(0.8, 0.9), weight_decay=0.1)
    for step in range(5):
        grad = torch.randn(6, generator=torch.Generator().manual_seed(step))
        a.grad, b.grad = grad.clone(), grad.clone()
        muon.step()
        adamw.step()
    assert torch.equal(a, b)


def test_descent_on_a_small_language_model() -> None:
    torch.manual_seed(4)
    model = TinyLM()
    opt = Muon(model, lr=0.02, adam_lr=3e-3)
    idx = torch.randint(0, 11, (8, 6))
    targets = torch.roll(idx, 1, dims=1)
    losses = []
    for _ in range(40):
        opt.zero_grad()
        loss = nn.functional.cross_entropy(model(idx).flatten(0, 1), targets.flatten())
        loss.backward()
        opt.step()
        losses.append(loss.item())
    assert losses[-1] < 0.5 * losses[0], losses
    assert all(b < a for a, b in zip(losses[:10], losses[1:11])), losses  # steady descent early on


def test_state_dict_resume_is_exact() -> None:
    def run(model: TinyLM, opt: Muon, steps: range) -> None:
        for step in steps:
            idx = torch.randint(0, 11, (4, 5), generator=torch.Generator().manual_seed(step))
            opt.zero_grad()
            model(idx).square().mean().backward()
            opt.step()

    torch.manual_seed(5)
    straight = TinyLM()
    stopped = copy.deepcopy(straight)
    run(straight, Muon(straight), range(6))
    opt = Muon(stopped)
    run(stopped, opt, range(3))
    saved = copy.deepcopy(opt.state_dict())
    fresh = Muon(stopped, lr=1.0)
    fresh.load_state_dict(saved)
    run(stopped, fresh, range(3, 6))
    for a, b in zip(straight.parameters(), stopped.parameters()):
        assert torch.equal(a, b)


def test_load_state_dict_checks_group_kinds() -> None:
    w = nn.Parameter(torch.ones(3, 3))
    saved = Muon([{"params": [w], "use_muon": True}]).state_dict()
    with pytest.raises(ValueError, match="group 0 is an AdamW group here but was saved as a Muon group"):
        Muon([{"params": [w], "use_muon": False}]).load_state_dict(saved)


def test_matrices_of_one_shape_are_orthogonalised_together_as_if_apart() -> None:
    torch.manual_seed(3)
    weights = [nn.Parameter(torch.randn(6, 10)) for _ in range(3)] + [nn.Parameter(torch.randn(10, 6))]
    for w in weights:
        w.grad = torch.randn_like(w)
    before = [w.detach().clone() for w in weights]
    Muon(weights, lr=0.1, momentum=0.0, nesterov=False).step()
    for w, b in zip(weights, before):
        expected = b - 0.1 * max(1.0, w.size(0) / w.size(1)) ** 0.5 * orthogonalize(w.grad)
        torch.testing.assert_close(w.detach(), expected, atol=1e-6, rtol=0)
    bf16 = nn.Parameter(before[0].clone())
    bf16.grad = weights[0].grad
    Muon([bf16], lr=0.1, momentum=0.0, nesterov=False, ns_dtype=torch.bfloat16).step()
    torch.testing.assert_close(bf16.detach(), weights[0].detach(), atol=2e-2, rtol=0)


def test_momentum_warms_up_from_its_start() -> None:
    torch.manual_seed(6)
    weight = nn.Parameter(torch.randn(6, 6))
    opt = Muon([weight], lr=0.1, momentum=0.95, momentum_warmup=4, momentum_start=0.85)
    seen = []
    for _ in range(6):
        seen.append(Muon.momentum_at(opt.param_groups[0]))
        weight.grad = torch.randn(6, 6)
        opt.step()
    assert seen == pytest.approx([0.85, 0.875, 0.9, 0.925, 0.95, 0.95])
    # the first step with warmup is a step at the start momentum
    a, b = nn.Parameter(torch.randn(6, 6)), nn.Parameter(torch.randn(6, 6))
    with torch.no_grad():
        b.copy_(a)
    a.grad, b.grad = torch.randn(6, 6), None
    b.grad = a.grad.clone()
    Muon([a], momentum=0.95, momentum_warmup=10, momentum_start=0.5).step()
    Muon([b], momentum=0.5).step()
    assert torch.equal(a, b)
    with pytest.raises(ValueError, match="momentum_warmup is a number of steps, got -1"):
        Muon([a], momentum_warmup=-1)
