"""ShardedAdamW: equal to unsharded AdamW on 2 real torchrun/gloo ranks, and on one process."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
import torch
from torch import nn

from tyr.optim import AdamW, ShardedAdamW, clip_grad_norm_

from tests.conftest import torchrun_script



@pytest.mark.slow
def test_sharded_equals_unsharded_on_two_ranks(tmp_path: Path) -> None:
    torchrun_script("sharded_adam.py", str(tmp_path))
    ranks = [json.loads((tmp_path / f"rank{r}.json").read_text()) for r in range(2)]
    for result in ranks:
        assert result["world_size"] == 2
        for reference in ("torch_adamw", "tyr_adamw"):
            assert result[reference]["equal"], result[reference]  # bit for bit
            assert result[reference]["moved"] > 1e-2  # the parameters did train
        # Each rank holds half of each group's state (49 and 23 elements, padded).
        assert result["tyr_adamw"]["group_sizes"] == [49, 23]
        assert result["tyr_adamw"]["shard_sizes"] == [25, 12]
        # With clipping the norm is summed in another order: equal to float tolerance.
        assert result["clipped"]["max_diff"] < 1e-6 and result["clipped"]["norm_diff"] < 1e-6
        assert result["resume"]["equal"]


def make_model() -> nn.Module:
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(5, 7), nn.Tanh(), nn.Linear(7, 3))


def train(model: nn.Module, opt: torch.optim.Optimizer, steps: int, clip: float | None = None) -> None:
    for step in range(steps):
        generator = torch.Generator().manual_seed(step)
        opt.zero_grad()
        model(torch.randn(4, 5, generator=generator)).square().mean().backward()
        if clip is not None:
            clip_grad_norm_(model, clip)
        opt.step()


def test_single_process_equals_adamw() -> None:
    ours, reference = make_model(), make_model()
    opt = ShardedAdamW(ours, lr=0.01, weight_decay=0.1)
    assert (opt.world_size, opt.rank) == (1, 0)
    train(ours, opt, 5)
    train(reference, AdamW(reference, lr=0.01, weight_decay=0.1), 5)
    for a, b in zip(ours.parameters(), reference.parameters()):
        assert torch.equal(a, b)


def test_single_process_clipping_matches_clip_grad_norm() -> None:
    ours, reference = make_model(), make_model()
    opt = ShardedAdamW(ours, lr=0.01, max_grad_norm=0.01)
    train(ours, opt, 5)
    train(reference, AdamW(reference, lr=0.01), 5, clip=0.01)
    for a, b in zip(ours.parameters(), reference.parameters()):
        torch.testing.assert_close(a, b, rtol=0, atol=1e-6)
    assert opt.last_grad_norm is not None and opt.last_grad_norm > 0.01  # clipping was active


def test_load_state_dict_refuses_another_world_size() -> None:
    model = make_model()
    opt = ShardedAdamW(model)
    train(model, opt, 1)
    saved = copy.deepcopy(opt.state_dict())
    saved["sharding"]["world_size"], saved["sharding"]["rank"] = 4, 3
    with pytest.raises(ValueError, match="it is the shard of rank 3 of 4 ranks, but this is rank 0 of 1"):
        ShardedAdamW(model).load_state_dict(saved)
    other = nn.Sequential(nn.Linear(5, 8), nn.Tanh(), nn.Linear(8, 3))
    with pytest.raises(ValueError, match="group 0 has 66 elements in the saved state but 75 here"):
        ShardedAdamW(list(other.parameters())).load_state_dict(ShardedAdamW(list(model.parameters())).state_dict())


def test_group_must_be_one_dtype() -> None:
    with pytest.raises(ValueError, match="group 0 mixes dtypes/devices"):
        ShardedAdamW([nn.Parameter(torch.ones(2)), nn.Parameter(torch.ones(2, dtype=torch.float64))])
