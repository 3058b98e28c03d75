"""The examples mypy checks in the corpus run (`test_mypy_corpus`) are real models: they train, with `@checked` on.

What mypy proves about their shapes, the runtime check must agree with.
"""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"tyr_example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("name", ["mlp", "cnn", "gpt"])
def test_example_runs(name: str) -> None:
    loss = load(name).main()
    assert math.isfinite(loss) and loss > 0


def test_mlp_learns() -> None:
    mlp = load("mlp")
    assert mlp.main(steps=20) < mlp.main(steps=1)
