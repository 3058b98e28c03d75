"""Adopting tyr adds no error to code without shape annotations (issue 8's promise, §6).

The programs in tests/adoption are unannotated code in the idioms of public projects where
tyr once added an error.  They are checked as `scripts/check_public_code.py` checks a project:
plain mypy (torch's own types) against mypy with tyr's plugin and stubs, under mypy's defaults
and with `allow_redefinition`; an error on a line where the other run has one is a rewording.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from scripts.check_public_code import CONFIGS, Run, check_project, difference

PROJECT = Path(__file__).resolve().parent / "adoption"


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Run]:
    return check_project(PROJECT, tmp_path_factory.mktemp("adoption"), {"check_untyped_defs": "True"}, list(CONFIGS))


@pytest.mark.parametrize(("plain", "with_tyr"), [("plain", "tyr-alone"), ("redefinition", "tyr")])
def test_tyr_adds_no_error(runs: dict[str, Run], plain: str, with_tyr: str) -> None:
    assert not runs[with_tyr].crashes
    added, _, _ = difference(runs[plain].errors, runs[with_tyr].errors)
    assert not added, "\n".join(map(str, added))


def test_the_programs_are_checked(runs: dict[str, Run]) -> None:
    """Each program does give mypy's own errors (so the comparison above compares something)."""
    assert {e.path for e in runs["plain"].errors} == {p.name for p in PROJECT.glob("*.py")}


def test_a_project_module_named_like_the_standard_library(tmp_path: Path) -> None:
    """A project's own `logging.py` (torchtitan's tools) is no module of mypy's: mypy runs with the
    project's folder off its path, and checks the project."""
    project = tmp_path / "project"
    project.mkdir()
    (project / "logging.py").write_text('raise ImportError("the project\'s logging, not the standard library\'s")\n')
    (project / "model.py").write_text("x: int = 'one'\n")
    runs = check_project(project, tmp_path / "work", {}, ["plain"])
    assert not runs["plain"].crashes
    assert [(e.path, e.line) for e in runs["plain"].errors] == [("model.py", 1)]
