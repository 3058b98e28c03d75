"""tyr under mypy's defaults: the plugin and stubs alone, without `allow_redefinition`.

The README recommends `allow_redefinition` for annotated models, but a project may enable the
plugin alone.  There tyr rebinds tensor names itself (`tyr.mypy_plugin._rebinding`,
`_renaming`): the shipped examples and every correct program of the model corpus must check
clean, and the rebinding programs in tests/mypy_default must reveal the shapes they mark.
"""

from __future__ import annotations

import configparser
from pathlib import Path

import pytest

from test_model_corpus import ok_programs
from test_mypy_corpus import ROOT, Report, example_programs, expectations, mismatches, parse_output, project_config, run_mypy

# and corpus programs whose marks hold under both settings
BOTH_MODES = [ROOT / "tests" / "mypy_corpus" / "rebinding" / name for name in ("loops_changing_shape.py", "loop_rebound_from_a_name.py")]
PROGRAMS = sorted((ROOT / "tests" / "mypy_default").glob("*.py")) + BOTH_MODES


@pytest.fixture(scope="module")
def reports(tmp_path_factory: pytest.TempPathFactory) -> dict[Path, list[Report]]:
    work = tmp_path_factory.mktemp("default-mode")
    config = project_config(work, [], as_users_run_it=True)
    settings = configparser.ConfigParser()
    settings.read(config)
    assert settings["mypy"].pop("allow_redefinition", None) is not None, "the project's config changed"
    with config.open("w") as out:
        settings.write(out)
    output = run_mypy([*PROGRAMS, *ok_programs(), *example_programs()], config, work / "cache")
    return parse_output(output)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.name)
def test_marked_shapes(program: Path, reports: dict[Path, list[Report]]) -> None:
    problems = mismatches(expectations(program), reports.get(program.resolve(), []))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("program", [*ok_programs(), *example_programs()], ids=lambda p: p.name)
def test_correct_models_check_clean(program: Path, reports: dict[Path, list[Report]]) -> None:
    errors = [r for r in reports.get(program.resolve(), []) if r.kind == "E"]
    assert not errors, f"{program.name}: {errors}"
