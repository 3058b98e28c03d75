"""`python -m tyr shapes`: the shape of each tensor a function binds, its coverage, JSON, and commented copies.

One mypy run (shared by the tests) reads the GPT example, a jaxtyping program and
a plain, unannotated torch file.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tyr.__main__ import main
from tyr._shapes_collect import Report, collect
from tyr._shapes_show import as_json, commented, coverage, text

ROOT = Path(__file__).resolve().parent.parent
GPT = ROOT / "examples" / "gpt.py"
JAXTYPING = ROOT / "tests" / "mypy_corpus" / "jaxtyping" / "realistic_splat.py"

PLAIN = '''\
import torch
from torch import nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(784, 10)

    def forward(self, x):
        return self.fc(x)


def main():
    x = torch.randn(32, 784)
    net = Net()
    logits = net.fc(x); probs = logits.softmax(-1)
    flat = torch.zeros(4, 8).view(2, 16)  # a comment stays
    text = """x = 1
"""
    pair = (torch.ones(3), torch.ones(3, 3)); a, b = pair
    return probs, flat, text, a, b
'''


@pytest.fixture(scope="module", autouse=True)
def own_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """mypy's cache for these tests alone (other tests may run mypy at the same time)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("MYPY_CACHE_DIR", str(tmp_path_factory.mktemp("mypy_cache")))
        yield


@pytest.fixture(scope="module")
def report(tmp_path_factory: pytest.TempPathFactory) -> tuple[Report, Path]:
    plain = tmp_path_factory.mktemp("plain") / "plain_torch.py"
    plain.write_text(PLAIN)
    return collect([str(GPT), str(JAXTYPING), str(plain)], str(ROOT / "mypy.ini")), plain


def _shapes(report: Report, path: Path, function: str) -> list[tuple[int, str, str]]:
    (file,) = [f for f in report.files if f.path.resolve() == path.resolve()]
    (found,) = [f for f in file.functions if f.name == function]
    return [(b.line, b.name, b.shape) for b in found.bindings]


def test_every_intermediate_shape_of_the_gpt(report: tuple[Report, Path]) -> None:
    shapes = _shapes(report[0], GPT, "CausalSelfAttention.forward")
    assert shapes == [
        (46, "x", "(B, T, C)"),
        (48, "q", "(B, T, C)"),
        (48, "k", "(B, T, C)"),
        (48, "v", "(B, T, C)"),
        (50, "q", "(B, H, T, C//H)"),
        (51, "k", "(B, H, T, C//H)"),
        (52, "v", "(B, H, T, C//H)"),
        (53, "y", "(B, H, T, C//H)"),
        (54, "y", "(B, T, C)"),
    ]
    assert (100, "x", "(B, T, C)") in _shapes(report[0], GPT, "GPT.forward")
    assert (106, "logits", "(B, T, V)") in _shapes(report[0], GPT, "GPT.loss")


def test_jaxtyping_names(report: tuple[Report, Path]) -> None:
    shapes = _shapes(report[0], JAXTYPING, "world_to_cam")
    assert (49, "R", "(C, 3, 3)") in shapes
    assert (51, "means_c", "(C, N, 3)") in shapes


def test_unannotated_code(report: tuple[Report, Path]) -> None:
    full, plain = report
    assert _shapes(full, plain, "main") == [
        (15, "x", "(32, 784)"),
        (17, "logits", "(32, 10)"),
        (17, "probs", "(32, 10)"),
        (18, "flat", "(2, 16)"),
        (21, "a", "(3)"),
        (21, "b", "(3, 3)"),
    ]
    assert _shapes(full, plain, "Net.forward") == []  # `x` has no type: nothing to say


def test_coverage_and_json(report: tuple[Report, Path]) -> None:
    full = report[0]
    known, total = coverage(full)
    assert 0 < known <= total
    data = json.loads(as_json(full))
    assert data["coverage"] == {"known": known, "assignments": total}
    assert f"{known} of {total}" in text(full).splitlines()[-1]


def test_commented_copy_is_the_same_program(report: tuple[Report, Path]) -> None:
    full, plain = report
    for file in full.files:
        source = file.path.read_text()
        out = commented(source, [b for f in file.functions for b in f.bindings])
        assert ast.dump(ast.parse(out)) == ast.dump(ast.parse(source)), file.path
    plain_file = next(f for f in full.files if f.path.resolve() == plain.resolve())
    out = commented(PLAIN, [b for f in plain_file.functions for b in f.bindings]).splitlines()
    assert out[14] == "    x = torch.randn(32, 784)  # (32, 784)"
    assert out[16].endswith("probs = logits.softmax(-1)  # logits: (32, 10), probs: (32, 10)")
    assert out[17].endswith("# a comment stays  # (2, 16)")


def test_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["shapes", str(GPT), "--comment", str(tmp_path), "--config-file", str(ROOT / "mypy.ini")]) == 0
    printed = capsys.readouterr().out
    assert "CausalSelfAttention.forward (line 46)" in printed and "coverage:" in printed
    written = (tmp_path / "gpt.py").read_text()
    assert "view(B, T, C)  # heads side by side again  # (B, T, C)" in written


def test_command_line_from_another_directory(tmp_path: Path) -> None:
    """Run as a user runs it: in their own directory, with their own config (the checkout's stubs are
    still read as `torch`'s, whatever the current directory)."""
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for extra in ([], ["--config-file", str(config)]):
        done = subprocess.run(
            [sys.executable, "-m", "tyr", "shapes", str(GPT), *extra], cwd=tmp_path, capture_output=True, text=True, env=env
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert "coverage:" in done.stdout
