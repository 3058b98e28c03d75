"""NanoChat: sizes derived from depth, the architecture's promises, shape checks, and KV-cache generation."""

from __future__ import annotations

import pytest
import torch

from tyr import ShapeError, checking_enabled
from tyr.models.nanochat import KVCache, NanoChat, NanoChatConfig
from tyr.optim import Role, role_param_groups

# width 32: 4 query heads of 8 sharing 2 key/value heads
SMALL = NanoChatConfig(vocab_size=37, depth=2, aspect_ratio=16, head_dim=8, n_kv_head=2, sequence_len=16)


def shaken(config: NanoChatConfig = SMALL, seed: int = 0) -> NanoChat:
    """A model whose weights are all random (no zero projections), so every path matters."""
    torch.manual_seed(seed)
    model = NanoChat.from_config(config)
    with torch.no_grad():
        for param in model.parameters():
            param.normal_(0.0, 0.4)
    return model.eval()


def test_sizes_are_derived_from_depth_and_described() -> None:
    d20 = NanoChatConfig(vocab_size=65_536)
    assert (d20.n_layer, d20.n_embd, d20.n_head, d20.n_kv_head) == (20, 1280, 10, 10)
    assert d20.describe().startswith("depth 20: 20 layers, width 20 x 64 = 1280, 10 heads of 128 and 10 key/value")
    assert d20.num_params() == 2 * 65_536 * 1280 + 20 * (12 * 1280**2 + 2)  # nanochat's d20: 560,988,160 + scalars
    rounded = NanoChatConfig(vocab_size=10, depth=3, aspect_ratio=50, head_dim=64)  # 150 is no multiple of 64
    assert (rounded.n_embd, rounded.n_head) == (192, 3) and "3 x 50 = 150 rounded up to 192" in rounded.describe()


def test_config_errors_show_the_arithmetic() -> None:
    with pytest.raises(ValueError, match=r"n_kv_head must divide the 4 query heads .* got n_kv_head 3: 4 % 3 = 1"):
        NanoChatConfig(vocab_size=10, depth=2, aspect_ratio=16, head_dim=8, n_kv_head=3)
    with pytest.raises(ValueError, match="head_dim must be even"):
        NanoChatConfig(vocab_size=10, head_dim=7)
    with pytest.raises(ValueError, match="depth must be at least 1, got 0"):
        NanoChatConfig(vocab_size=10, depth=0)


def test_parameters_and_flops_match_the_model() -> None:
    model = NanoChat.from_config(SMALL)
    assert sum(p.numel() for p in model.parameters()) == SMALL.num_params()
    matmul = sum(p.numel() for name, p in model.named_parameters() if p.dim() == 2 and name != "wte.weight")
    assert SMALL.flops_per_token() == 6 * matmul + 12 * 2 * 4 * 8 * 16  # + scores and mixing: layers, heads, Hd, T


def test_the_architecture() -> None:
    model = NanoChat.from_config(SMALL)
    names = dict(model.named_parameters())
    assert not any(name.endswith("bias") for name in names)  # no biases, no norm gains
    assert model.wte.weight is not model.lm_head.weight  # untied
    for name, param in names.items():
        if name.endswith("c_proj.weight"):
            assert not param.any(), name  # zero-initialised output projections
    idx = torch.randint(0, 37, (3, 9))
    x = torch.nn.functional.rms_norm(model.wte(idx), (32,))
    assert torch.allclose(model.blocks[0](x), x)  # so every block starts as the identity
    loud = shaken()
    with torch.no_grad():
        loud.lm_head.weight.mul_(10)  # raw logits of about +-20 (std 0.4 * 10 * sqrt(32)) and beyond
    logits = loud(idx)
    assert logits.shape == (3, 9, 37) and logits.dtype == torch.float32
    assert SMALL.softcap * 0.9 < logits.abs().max() <= SMALL.softcap  # soft-capped


def test_it_is_causal_and_scores_every_position() -> None:
    model = shaken()
    idx = torch.randint(0, 37, (2, 12))
    changed = idx.clone()
    changed[:, 7:] = (changed[:, 7:] + 1) % 37
    assert torch.allclose(model(changed)[:, :7], model(idx)[:, :7], atol=1e-5)
    nats = model.nats(idx[:, :-1], idx[:, 1:])
    expected = torch.nn.functional.cross_entropy(model(idx[:, :-1]).transpose(1, 2), idx[:, 1:], reduction="none")
    assert nats.shape == (2, 11) and torch.allclose(nats, expected)


def test_shapes_are_checked_at_runtime() -> None:
    assert checking_enabled()
    model = NanoChat.from_config(SMALL)
    with pytest.raises(ShapeError, match="argument 'idx': expected dtype Integer, got torch.float32"):
        model(torch.zeros(2, 3))
    with pytest.raises(ShapeError, match=r"NanoChat.nats\(\) argument 'targets': dimension 1 \(T\) has size 4, but T = 5"):
        model.nats(torch.zeros(2, 5, dtype=torch.long), torch.zeros(2, 4, dtype=torch.long))  # mypy says so too
    with pytest.raises(ShapeError, match=r"Block.forward\(\) argument 'x': dimension 2 \(C\) has size 31, but C = 32"):
        model.blocks[0](torch.zeros(1, 4, 31))
    with pytest.raises(ValueError, match="Cannot forward sequence of length 17, the context is 16"):
        model(torch.zeros(1, 17, dtype=torch.long))


def test_a_cache_read_in_pieces_gives_the_logits_of_one_pass() -> None:
    model = shaken()
    idx = torch.randint(0, 37, (2, 14))
    cache = model.new_cache(2, 14)
    pieces = [model(idx[:, a:b], cache) for a, b in ((0, 5), (5, 6), (6, 11), (11, 14))]  # prefill, 1, chunk, chunk
    assert cache.length == 14
    torch.testing.assert_close(torch.cat(pieces, dim=1), model(idx), atol=1e-5, rtol=1e-5)
    with pytest.raises(ValueError, match="the KV cache holds 14 positions, 15 were asked for"):
        model(idx[:, :1], cache)
    with pytest.raises(ShapeError, match=r"KVCache.store\(\) argument 'k': dimension 1 \(KV\) has size 4, but KV = 2"):
        cache.store(0, torch.zeros(2, 4, 1, 8), torch.zeros(2, 4, 1, 8))  # the cache holds 2 key/value heads


@pytest.mark.parametrize("temperature", [0.0, 1.0])
def test_generation_with_the_cache_equals_generation_without(temperature: float) -> None:
    for seed, config in enumerate([SMALL, NanoChatConfig(vocab_size=37, depth=2, aspect_ratio=8, head_dim=8)]):
        model = shaken(config, seed)
        prompt = torch.randint(0, 37, (3, 4))
        cached, uncached = (
            model.generate(prompt, 12, temperature=temperature, top_k=20, generator=torch.Generator().manual_seed(7),
                           use_cache=use_cache)  # fmt: skip
            for use_cache in (True, False)
        )
        assert cached.shape == (3, 16) and torch.equal(cached[:, :4], prompt)
        assert cached.tolist() == uncached.tolist(), (seed, temperature)
        if temperature:  # the draws depend on the generator: a different seed writes different text
            other = model.generate(prompt, 12, temperature=1.0, generator=torch.Generator().manual_seed(8))
            assert not torch.equal(other, cached)


def test_the_cache_can_outgrow_the_training_context() -> None:
    model = shaken()
    out = model.generate(torch.zeros(1, 1, dtype=torch.long), 40, temperature=0.0)  # 41 positions > context 16
    assert out.shape == (1, 41)
    assert isinstance(model.new_cache(1, 3), KVCache)


def test_every_parameter_is_in_exactly_one_optimizer_group() -> None:
    model = NanoChat.from_config(SMALL)
    rates: dict[Role, float] = {"matrix": 0.02, "embedding": 0.3, "head": 0.004, "scalar": 0.5}
    groups = role_param_groups(model, rates)
    placed = [id(p) for g in groups for _, p in g["params"]]
    assert sorted(placed) == sorted(id(p) for p in model.parameters())  # each once, none left out
    roles = {g["role"]: sorted(name for name, _ in g["params"]) for g in groups}
    assert roles["embedding"] == ["wte.weight"] and roles["head"] == ["lm_head.weight"]
    assert roles["scalar"] == ["resid_lambdas", "x0_lambdas"]
    assert len(roles["matrix"]) == 2 * 6 and all(name.startswith("blocks.") for name in roles["matrix"])
    assert all(g["use_muon"] == (g["role"] == "matrix") and g["lr"] == rates[g["role"]] for g in groups)
