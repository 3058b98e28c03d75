"""The package's public surface: every name resolves, and loading the mypy plugin does not import torch."""

import subprocess
import sys

import pytest

import tyr


def test_every_public_name_resolves() -> None:
    assert sorted(tyr.__all__) == sorted(tyr._HOMES)
    for name in tyr.__all__:
        assert getattr(tyr, name) is not None
    assert tyr.tree.map is not None  # submodules load on first use too
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        tyr.nonexistent  # noqa: B018


def test_loading_the_mypy_plugin_does_not_import_torch() -> None:
    # mypy imports the plugin in every run, warm or cold: importing torch would cost over a second each time.
    program = "import sys, tyr.mypy_plugin; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
