"""tyr.distributed in a single process (multi-rank use runs in tests/dist/ under torchrun)."""

from __future__ import annotations

import pytest
import torch

from tyr import distributed


def test_single_process_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("RANK", "WORLD_SIZE", "LOCAL_RANK"):
        monkeypatch.delenv(name, raising=False)
    info = distributed.init_from_env()
    assert info == distributed.DistInfo(rank=0, world_size=1, local_rank=0, device=torch.device("cpu"))
    assert not distributed.is_initialized()
    assert (distributed.rank(), distributed.world_size(), distributed.is_main()) == (0, 1, True)
    distributed.barrier()  # no group: returns at once
    distributed.destroy()


def test_bad_environment_is_explained(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WORLD_SIZE", "2")
    monkeypatch.setenv("RANK", "2")
    with pytest.raises(ValueError, match=r"RANK=2 is not in \[0, WORLD_SIZE=2\)"):
        distributed.init_from_env()
    monkeypatch.setenv("WORLD_SIZE", "two")
    with pytest.raises(ValueError, match="environment variable WORLD_SIZE='two' is not an integer"):
        distributed.init_from_env()
