"""The masked diffusion model: shapes, the NELBO estimator against its exact value, and sampling."""

import itertools
import math

import pytest
import torch
import torch.nn.functional as F

from tyr import ShapeError
from tyr.models.diffusion import DiffusionConfig, MaskedDiffusionLM, masking_rates, nelbo, sample
from tyr.models.rotary import Rotary

TINY = DiffusionConfig(vocab_size=5, block_size=8, n_layer=1, n_head=2, n_embd=8)


def model(config: DiffusionConfig = TINY, seed: int = 0) -> MaskedDiffusionLM:
    torch.manual_seed(seed)
    return MaskedDiffusionLM.from_config(config).eval()


def test_logits_cover_the_vocabulary_but_not_mask() -> None:
    m = model()
    idx = torch.tensor([[0, 5, 4, 5, 1]])  # 5 is MASK
    assert m.mask_id == 5
    assert m(idx).shape == (1, 5, 5)
    assert m.wte.weight.shape == (6, 8)  # the input table has a row for MASK
    with pytest.raises(ValueError, match="Cannot forward sequence of length 9, block size is only 8"):
        m(torch.zeros(1, 9, dtype=torch.long))
    with pytest.raises(ShapeError, match="expected dtype Integer"):
        m(idx.float())


@pytest.mark.parametrize("options", [dict(tie_embeddings=True), dict(qk_norm=True), dict(qk_norm=True, qk_gain=True)])
def test_variants(options: dict[str, object]) -> None:
    m = model(DiffusionConfig(vocab_size=5, block_size=8, n_layer=1, n_head=2, n_embd=8, **options))
    assert m(torch.tensor([[0, 5, 4, 5, 1]])).shape == (1, 5, 5)
    assert (m.lm_head is None) == bool(options.get("tie_embeddings"))


def test_config_needs_even_heads_for_rotary() -> None:
    with pytest.raises(ValueError, match="heads of even size"):
        DiffusionConfig(n_embd=12, n_head=4)


def test_rotary_keeps_norms_and_scores_depend_on_offsets_only() -> None:
    rotary = Rotary(8, 16)
    q, k = torch.randn(1, 1, 1, 8), torch.randn(1, 1, 1, 8)
    at = lambda x, p: rotary(torch.cat([torch.zeros(1, 1, p, 8), x], dim=2))[:, :, p]  # noqa: E731
    assert torch.allclose(at(q, 5).norm(), q.norm(), atol=1e-5)
    assert torch.allclose(at(q, 7) @ at(k, 3).mT, at(q, 4) @ at(k, 0).mT, atol=1e-5)


def test_masking_rates_are_spread_evenly() -> None:
    rates = masking_rates(8, torch.Generator().manual_seed(1)).sort().values
    assert 0 < rates[0] <= 1 / 8 and rates[-1] <= 1
    assert torch.allclose(rates.diff(), torch.full((7,), 1 / 8), atol=1e-6)


@torch.no_grad()
def exact_nelbo(m: MaskedDiffusionLM, x: torch.Tensor) -> float:
    """sum over non-empty masks M of P(M) * sum_{i in M} -log p(x_i | x without M), integrated over t exactly.

    With each position masked at rate t and weight 1/t, the integral over t of
    t^(k-1) (1-t)^(T-k) is (k-1)! (T-k)! / T! for a mask of k positions.
    """
    t = x.numel()
    total = 0.0
    for k in range(1, t + 1):
        weight = math.factorial(k - 1) * math.factorial(t - k) / math.factorial(t)
        for positions in itertools.combinations(range(t), k):
            masked = torch.zeros(t, dtype=torch.bool)
            masked[list(positions)] = True
            logits = m(torch.where(masked, m.mask_id, x)[None])[0]
            total += weight * float(F.cross_entropy(logits[masked], x[masked], reduction="sum"))
    return total


@pytest.mark.parametrize(("estimator", "skew"), [("count", 0.0), ("count", 1.0), ("rate", 0.0)])
def test_nelbo_estimate_matches_the_brute_force_value(estimator: str, skew: float) -> None:
    m = model(seed=3)
    x = torch.tensor([3, 0, 4, 1])
    exact = exact_nelbo(m, x)
    with torch.no_grad():
        draws = nelbo(m, x.repeat(40_000, 1), mask_id=m.mask_id, estimator=estimator, skew=skew,
                      generator=torch.Generator().manual_seed(0))  # fmt: skip
    error = draws.std().item() / math.sqrt(draws.numel())  # (stratified draws: an upper bound)
    assert abs(draws.mean().item() - exact) < max(4 * error, 2e-3 * exact), (draws.mean().item(), exact, error)
    # the NELBO bounds the negative log-likelihood, which is >= 0, and a random model is near log(V) per token
    assert 0 < exact < 3 * 4 * math.log(5)


def test_count_estimator_is_less_noisy_than_rate() -> None:
    m = model(seed=3)
    x = torch.tensor([3, 0, 4, 1, 2, 2, 0, 1])
    generator = torch.Generator().manual_seed(0)
    with torch.no_grad():
        spread = {e: nelbo(m, x.repeat(4000, 1), mask_id=5, estimator=e, generator=generator).std().item()
                  for e in ("count", "rate")}  # fmt: skip
    assert spread["count"] < spread["rate"] / 2, spread


@pytest.mark.parametrize("order", ["random", "confidence"])
@pytest.mark.parametrize("steps", [1, 3, 8])
def test_sampling_fills_every_mask_with_a_real_token(order: str, steps: int) -> None:
    m = model()
    prompt = torch.full((3, 8), m.mask_id)
    prompt[:, 0] = 2
    prompt[1, 4] = 0
    out = sample(m, prompt, mask_id=m.mask_id, steps=steps, order=order, top_k=3,
                 generator=torch.Generator().manual_seed(0))  # fmt: skip
    assert out.shape == prompt.shape and out.dtype == torch.long
    assert ((out >= 0) & (out < m.mask_id)).all()  # no MASK left, every id the tokenizer's
    assert (out[:, 0] == 2).all() and out[1, 4] == 0  # the prompt's tokens are kept
