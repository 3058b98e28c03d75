"""A build where no module imports tyr: code annotated with `torch.Tensor[N, "T+1"]` alone.

tyr's torch stubs load `tyr._static`, so the plugin has its `Dim` and `DimExpr` to give sizes as,
whatever the checked code imports (before, a computed size here was an internal error and
`x.shape[0]` a plain `int`).
"""

from __future__ import annotations

from pathlib import Path

from test_mypy_corpus import expectations, mismatches, parse_output, project_config, run_mypy

PROGRAM = '''\
from typing import TypeVar, reveal_type

import torch

N = TypeVar("N")
T = TypeVar("T")


def f(x: torch.Tensor[N, "T+1"], index: torch.Tensor[2, 3, 4]) -> None:
    reveal_type(x.shape[0])  # N: Revealed type is "tyr._static.Dim[N]"
    reveal_type(x[:, 1:])  # N: Revealed type is "torch._tensor.Tensor[N, T]"
    x.gather(0, index)  # E: gather: the index (2, 3, 4) must have as many dims as the input (N, T + 1)  [tyr-shape]
    x.split([x.shape[0], 1])  # E: split: section sizes [N, 1] add up to N + 1, but dimension 0 of (N, T + 1) is N  [tyr-shape]
'''


def test_sizes_without_importing_tyr(tmp_path: Path) -> None:
    program = tmp_path / "torch_only.py"
    program.write_text(PROGRAM)
    assert "tyr" not in PROGRAM.replace("[tyr-shape]", "").replace("tyr._static.Dim", "")
    config = project_config(tmp_path, [], as_users_run_it=True)
    reports = parse_output(run_mypy([program], config, tmp_path / "cache")).get(program.resolve(), [])
    problems = mismatches(expectations(program), reports)
    assert not problems, "\n".join(problems)
