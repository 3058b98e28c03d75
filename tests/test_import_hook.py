"""`install_import_hook` checks a whole package; `TYR_CHECKS=0` turns checking off at no cost."""

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest
import torch

import tyr
from tyr import ShapeError

MODELS = '''
"""A user package written without any tyr decorator."""
from __future__ import annotations

from typing import Generic, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


def double(x: Tensor[B, D]) -> Tensor[B, D]:
    return x * 2


def untyped(x):
    return x


class Head(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.proj = nn.Linear(d, 3)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, 3]:
        return self.proj(x)

    def clone(self) -> Head[D]:
        return self
'''


@pytest.fixture
def user_package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    package = tmp_path / "usermodels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "layers.py").write_text(MODELS)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield "usermodels"
    for name in [m for m in sys.modules if m.startswith("usermodels")]:
        del sys.modules[name]


def test_hook_checks_functions_and_classes_of_the_package(user_package: str) -> None:
    with tyr.install_import_hook(user_package):
        from usermodels import layers  # type: ignore[import-not-found]

    assert layers.double(torch.zeros(2, 3)).shape == (2, 3)
    assert layers.untyped(5) == 5
    head = layers.Head(4)
    assert head(torch.zeros(2, 4)).shape == (2, 3)
    assert head.clone() is head
    with pytest.raises(ShapeError, match=r"Head.forward\(\) argument 'x': dimension 1 \(D\) has size 5, but D = 4"):
        head(torch.zeros(2, 5))
    with pytest.raises(ShapeError, match=r"double\(\) argument 'x': expected 2 dimensions"):
        layers.double(torch.zeros(3))


def test_modules_outside_the_hook_are_untouched(user_package: str) -> None:
    hook = tyr.install_import_hook("some_other_package")
    try:
        from usermodels import layers

        assert layers.double(torch.zeros(3)).shape == (3,)
    finally:
        hook.uninstall()


def test_env_switch_makes_checked_the_identity() -> None:
    program = textwrap.dedent(
        """
        from typing import TypeVar
        import torch
        from tyr import Tensor, checked
        B = TypeVar("B")
        def f(x: Tensor[B, 2]) -> Tensor[B, 2]:
            return x
        g = checked(f)
        assert g is f, "checked must return the function itself when TYR_CHECKS=0"
        g(torch.zeros(3))  # wrong shape, not checked
        print("unchecked")
        """
    )
    env = {"TYR_CHECKS": "0", "PATH": ""}
    out = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "unchecked"
