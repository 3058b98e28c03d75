"""The GPT model: shapes checked at its boundaries, config validation, and that it learns."""

import pytest
import torch

from tyr import ShapeError
from tyr.models import GPT, GPTConfig

TINY = GPTConfig(vocab_size=11, block_size=16, n_layer=2, n_head=2, n_embd=16)


def test_forward_shapes_and_loss() -> None:
    torch.manual_seed(0)
    model = GPT.from_config(TINY)
    idx = torch.randint(0, 11, (3, 8))
    logits, loss = model(idx, idx)
    assert logits.shape == (3, 8, 11)
    assert loss is not None and loss.shape == ()
    logits, loss = model(idx)
    assert loss is None


def test_inputs_are_shape_and_dtype_checked() -> None:
    model = GPT.from_config(TINY)
    idx = torch.randint(0, 11, (3, 8))
    with pytest.raises(ShapeError, match=r"GPT.forward\(\) argument 'targets': dimension 1 \(T\) has size 7, but T = 8"):
        model(idx, idx[:, :7])
    with pytest.raises(ShapeError, match="argument 'idx': expected dtype Integer, got torch.float32"):
        model(idx.float())
    with pytest.raises(ShapeError, match="argument 'idx': expected 2 dimensions, got 1"):
        model(idx[0])


def test_sequence_longer_than_block_size_is_refused() -> None:
    model = GPT.from_config(TINY)
    with pytest.raises(ValueError, match="Cannot forward sequence of length 17, block size is only 16"):
        model(torch.zeros(1, 17, dtype=torch.long))


def test_config_errors_show_the_arithmetic() -> None:
    with pytest.raises(ValueError, match=r"n_embd % n_head = 10 % 3 = 1"):
        GPTConfig(n_embd=10, n_head=3)
    with pytest.raises(ValueError, match="n_layer must be positive, got 0"):
        GPTConfig(n_layer=0)


def test_constructor_sizes_must_match_the_config() -> None:
    with pytest.raises(ValueError, match="vocab_size 12 vs 11"):
        GPT(TINY, 12, 16)


def test_it_learns_a_repeating_sequence() -> None:
    torch.manual_seed(0)
    model = GPT.from_config(TINY)
    optimizer = torch.optim.AdamW(model.parameters(), lr=3e-3)
    pattern = torch.arange(12) % 11
    idx, targets = pattern[:-1].repeat(4, 1), pattern[1:].repeat(4, 1)
    first = None
    for _ in range(80):  # 60 sufficed with N(0, 0.02) matrices; 1/fan_in ones learn this toy a little slower
        _, loss = model(idx, targets)
        assert loss is not None
        first = first if first is not None else loss.item()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    assert loss.item() < 0.2 * first
    generated = model.generate(pattern[:3].unsqueeze(0), max_new_tokens=4, top_k=1)
    assert generated.tolist() == [pattern[:7].tolist()]


@pytest.mark.parametrize("options", [dict(position="rotary"), dict(activation="relu2"), dict(qk_norm=True)])
def test_variants_run_and_are_causal(options: dict[str, object]) -> None:
    torch.manual_seed(0)
    model = GPT.from_config(GPTConfig(vocab_size=11, block_size=16, n_layer=2, n_head=2, n_embd=16, **options))
    idx = torch.randint(0, 11, (2, 10))
    logits, _ = model(idx)
    changed = idx.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % 11  # the future must not change the past's predictions
    assert torch.allclose(model(changed)[0][:, :6], logits[:, :6], atol=1e-6)
    assert (model.wpe is None) == (options.get("position") == "rotary")
