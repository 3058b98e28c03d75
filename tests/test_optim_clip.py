"""Global-norm gradient clipping against torch.nn.utils.clip_grad_norm_."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from tyr.optim import clip_grad_norm_, grad_norm


def model_with_grads(scale: float = 1.0) -> nn.Module:
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 2))
    (model(torch.randn(16, 4)).sum() * scale).backward()
    return model


@pytest.mark.parametrize("max_norm", [0.1, 1.0, 1e6])
def test_matches_torch(max_norm: float) -> None:
    ours, theirs = model_with_grads(), model_with_grads()
    norm = clip_grad_norm_(ours, max_norm)
    expected = torch.nn.utils.clip_grad_norm_(theirs.parameters(), max_norm)
    torch.testing.assert_close(norm, expected, rtol=1e-6, atol=0)
    for a, b in zip(ours.parameters(), theirs.parameters()):
        assert a.grad is not None and b.grad is not None
        torch.testing.assert_close(a.grad, b.grad, rtol=1e-6, atol=0)
    after = grad_norm(ours)
    assert after <= max_norm * (1 + 1e-5)
    if max_norm > norm:
        assert torch.equal(after, norm)  # below the limit nothing changes


def test_tied_frozen_and_missing_grads() -> None:
    model = nn.Module()
    model.embed = nn.Embedding(5, 3)
    model.head = nn.Linear(3, 5, bias=False)
    model.head.weight = model.embed.weight
    model.frozen = nn.Linear(3, 3)
    model.frozen.requires_grad_(False)
    model.frozen.weight.grad = torch.full((3, 3), 100.0)  # ignored: frozen
    model.unused = nn.Linear(3, 3)  # no grad: ignored
    model.embed.weight.grad = torch.full((5, 3), 2.0)
    expected = torch.linalg.vector_norm(model.embed.weight.grad)
    torch.testing.assert_close(grad_norm(model), expected)  # the tied weight counts once
    assert grad_norm(nn.Linear(2, 2)) == 0


def test_nonfinite_norm() -> None:
    model = model_with_grads()
    model[0].weight.grad[0, 0] = float("inf")
    with pytest.raises(RuntimeError, match="the global gradient norm is inf"):
        clip_grad_norm_(model, 1.0, error_if_nonfinite=True)
    with pytest.raises(ValueError, match="max_norm must be > 0"):
        clip_grad_norm_(model, 0.0)
