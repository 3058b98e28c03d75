"""The model corpus: whole modern models, shape-annotated the way a user adopting tyr writes them.

Each program under `tests/model_corpus/` is one self-contained, correct model (GPT with rotary
embeddings and a KV cache, DiT, ResNet, Swin, CLIP, ...) with a small `demo()` that builds it
with tiny sizes and runs it.  Two things are asked of each:

* **ok programs**: mypy (tyr's plugin, the project's config) reports nothing, and `demo()` runs
  with `@checked`'s runtime checks on, so the annotations are known to be true.
* **bug variants**, listed in `tests/model_corpus/bugs.toml`: the ok program with one realistic
  shape bug patched in, on a line marked `# BUG`.  Run in torch (runtime checks off) the demo
  must fail on exactly that line, and mypy must report an error on exactly that line and
  nowhere else (but on lines marked `# SAME BUG`, where the same mistake shows too: a second
  use torch would fail on if it got that far, or an annotation the mistake contradicts;
  reporting those instead or as well is right).  A variant the checker cannot catch yet
  says why in `missed`; its test is a strict xfail, and it still must not draw an error on
  any other line.

All programs, ok and bug, are checked in one mypy run, shared by the pytest workers.  The
variants are written to a temporary directory, named `<program>__<bug>.py`.

Score the checker against the corpus, with every unexpected error listed per program::

    .venv/bin/python tests/test_model_corpus.py --score
    .venv/bin/python tests/test_model_corpus.py --score --variants /tmp/variants   # also keep the variant files
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import tempfile
import tomllib
import traceback
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from types import ModuleType

import pytest
from filelock import FileLock

if __name__ == "__main__":  # run as a script: the shared helpers sit beside this file
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from test_mypy_corpus import ROOT, Report, parse_output, project_config, run_mypy

CORPUS = ROOT / "tests" / "model_corpus"
BUGS = CORPUS / "bugs.toml"
BUG_MARK = "# BUG"
SAME_MARK = "# SAME BUG"


@dataclass(frozen=True)
class Bug:
    """One bug variant: `program` with each `find` (a unique substring of one line) replaced."""

    program: str
    name: str
    edits: tuple[tuple[str, str], ...]
    missed: str = ""  # why the checker cannot flag it yet (bugs.toml `missed`); empty when it must

    @property
    def filename(self) -> str:
        return f"{Path(self.program).stem}__{self.name}.py"

    def source(self) -> str:
        text = (CORPUS / self.program).read_text()
        for find, replace in self.edits:
            count = text.count(find)
            if count != 1:
                raise ValueError(f"{self.filename}: {find!r} occurs {count} times in {self.program}, not once")
            if "\n" in find or "\n" in replace:
                raise ValueError(f"{self.filename}: an edit replaces part of one line, not several")
            text = text.replace(find, replace)
        if len(bug_lines(text)) != 1:
            raise ValueError(f"{self.filename}: the edits must leave exactly one line marked {BUG_MARK!r}")
        return text


def bug_lines(text: str) -> list[int]:
    return [number for number, line in enumerate(text.splitlines(), 1) if BUG_MARK in line]


def same_bug_lines(text: str) -> set[int]:
    return {number for number, line in enumerate(text.splitlines(), 1) if SAME_MARK in line}


def load_bugs() -> list[Bug]:
    """The variants of bugs.toml: `find` / `replace`, plus `also` = [[find, replace], ...] for more edits."""
    table = tomllib.loads(BUGS.read_text())
    bugs: list[Bug] = []
    for entry in table["bug"]:
        edits = [(entry["find"], entry["replace"]), *((f, r) for f, r in entry.get("also", []))]
        bugs.append(Bug(entry["program"], entry["name"], tuple(edits), entry.get("missed", "")))
    names = [b.filename for b in bugs]
    duplicates = sorted({n for n in names if names.count(n) > 1})
    if duplicates:
        raise ValueError(f"bugs.toml names these variants twice: {duplicates}")
    return bugs


def ok_programs() -> list[Path]:
    return sorted(CORPUS.glob("*.py"))


def write_variants(directory: Path) -> dict[str, Path]:
    """Every bug variant written to `directory`; path by variant file name."""
    directory.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    for bug in load_bugs():
        path = directory / bug.filename
        path.write_text(bug.source())
        written[bug.filename] = path.resolve()
    return written


# -- mypy, once for the whole corpus --------------------------------------------------------------


def check_corpus(work: Path) -> dict[str, list[dict[str, object]]]:
    """One mypy run over the ok programs and the variants; reports keyed by file name."""
    variants = write_variants(work / "variants")
    config = project_config(work, [work / "variants"], as_users_run_it=True)
    output = run_mypy([*ok_programs(), *variants.values()], config, work / "cache")
    by_path = parse_output(output)
    names = {p.resolve(): p.name for p in ok_programs()} | {p: name for name, p in variants.items()}
    results: dict[str, list[dict[str, object]]] = {name: [] for name in names.values()}
    for path, reports in by_path.items():
        results[names.get(path, str(path))] = [r.__dict__ for r in reports if r.kind == "E"]
    return results


@pytest.fixture(scope="session")
def model_results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The corpus checked once per test session, whichever worker gets here first."""
    try:
        run_id = str(request.getfixturevalue("testrun_uid"))
    except pytest.FixtureLookupError:
        run_id = uuid.uuid4().hex
    shared = tmp_path_factory.getbasetemp().parent / f"tyr-model-corpus-{run_id}"
    shared.mkdir(exist_ok=True)
    with FileLock(str(shared / "lock")):
        results_file = shared / "results.json"
        if not results_file.exists():
            results = {"mypy": check_corpus(shared), "variants": str(shared / "variants")}
            results_file.write_text(json.dumps(results))
        loaded: dict[str, object] = json.loads(results_file.read_text())
        return loaded


def errors_of(results: dict[str, object], name: str) -> list[Report]:
    mypy = results["mypy"]
    assert isinstance(mypy, dict)
    return [Report(**item) for item in mypy.get(name, [])]


# -- running a program's demo ----------------------------------------------------------------------


def load(path: Path) -> ModuleType:
    """Import a corpus program from its file (under a name of its own, so dataclasses resolve)."""
    name = f"tyr_model_corpus_{path.stem}"
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def run_demo(path: Path, *, checks: bool) -> None:
    import torch

    import tyr

    torch.set_num_threads(1)
    torch.manual_seed(0)
    demo: Callable[[], object] = load(path).demo
    with tyr.checking(checks):
        demo()


def failing_line(path: Path) -> tuple[int | None, str]:
    """The line of `path` where its demo fails (runtime checks off: torch's own error), and the error."""
    try:
        run_demo(path, checks=False)
    except Exception as error:  # noqa: BLE001 - any failure is reported with its line
        frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename).resolve() == path]
        line = frames[-1].lineno if frames else None
        return line, f"{type(error).__name__}: {error}".splitlines()[0]
    return None, "the demo ran without an error"


# -- the tests ------------------------------------------------------------------------------------


def _describe(reports: list[Report]) -> str:
    return "\n  ".join(f"line {r.line}: {r.message}" for r in reports)


@pytest.mark.parametrize("program", ok_programs(), ids=lambda p: p.name)
def test_ok_program(program: Path, model_results: dict[str, object]) -> None:
    """A correct model checks clean and its demo runs, with the runtime shape checks on."""
    run_demo(program, checks=True)
    errors = errors_of(model_results, program.name)
    assert not errors, f"{program.name}: false alarms:\n  {_describe(errors)}"


class NotFlagged(AssertionError):
    """mypy reported nothing on the bug's line."""


def _bug_params() -> list[object]:
    """Each variant; a known miss is a strict xfail (it fails the suite once the checker catches it)."""
    miss = partial(pytest.mark.xfail, strict=True, raises=NotFlagged)
    return [pytest.param(bug, marks=miss(reason=f"known miss: {bug.missed}")) if bug.missed else bug for bug in load_bugs()]


@pytest.mark.parametrize("bug", _bug_params(), ids=lambda b: b.filename.removesuffix(".py"))
def test_bug_variant(bug: Bug, model_results: dict[str, object]) -> None:
    """A model with one shape bug fails in torch on the `# BUG` line, and mypy flags that line only."""
    path = (Path(str(model_results["variants"])) / bug.filename).resolve()
    text = path.read_text()
    (marked,) = bug_lines(text)
    line, error = failing_line(path)
    assert line == marked, f"{bug.filename}: torch should fail on line {marked}, but failed on {line} ({error})"
    errors = errors_of(model_results, bug.filename)
    allowed = {marked} | same_bug_lines(text)
    elsewhere = [r for r in errors if r.line not in allowed]
    assert not elsewhere, f"{bug.filename}: mypy should flag line {marked} only; it also reported:\n  {_describe(elsewhere)}"
    if not errors:
        raise NotFlagged(f"{bug.filename}: mypy reported nothing on line {marked}")


def test_corpus_covers() -> None:
    """Every ok program has bug variants, and every variant names an ok program."""
    programs = {p.name for p in ok_programs()}
    patched = {b.program for b in load_bugs()}
    assert patched <= programs, f"bugs.toml patches unknown programs: {sorted(patched - programs)}"
    assert programs <= patched, f"programs without a bug variant: {sorted(programs - patched)}"
    assert len(programs) >= 15


# -- the score ------------------------------------------------------------------------------------


def score(variants_dir: Path | None) -> int:
    """Print how the checker does on the corpus; the exit status is 0 when everything is as it should be."""
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        results: dict[str, object] = {"mypy": check_corpus(work), "variants": str(work / "variants")}
        lines: list[str] = []
        ok_clean = 0
        for program in ok_programs():
            errors = errors_of(results, program.name)
            try:
                run_demo(program, checks=True)
                ran = ""
            except Exception as error:  # noqa: BLE001
                ran = f"  DEMO FAILED: {type(error).__name__}: {error}".splitlines()[0]
            ok_clean += not errors and not ran
            status = "clean" if not errors else f"{len(errors)} false alarm(s)"
            lines.append(f"ok   {program.name}: {status}{ran}")
            lines += [f"       line {r.line}: {r.message}" for r in errors]
        counts = {"flagged on its line only": 0, "flagged among spurious errors": 0, "missed": 0}
        for bug in load_bugs():
            path = (work / "variants" / bug.filename).resolve()
            text = path.read_text()
            (marked,) = bug_lines(text)
            errors = errors_of(results, bug.filename)
            allowed = {marked} | same_bug_lines(text)
            hit = any(r.line in allowed for r in errors)
            spurious = [r for r in errors if r.line not in allowed]
            verdict = (
                "flagged on its line only"
                if hit and not spurious
                else "flagged among spurious errors"
                if hit
                else "missed"
            )
            counts[verdict] += 1
            line, error = failing_line(path)
            runtime = "" if line == marked else f"  TORCH FAILS ON LINE {line}, NOT {marked}: {error}"
            lines.append(f"bug  {bug.filename} (line {marked}): {verdict}{runtime}")
            lines += [f"       line {r.line}: {r.message}" for r in errors if r.line != marked or verdict == "missed"]
        if variants_dir is not None:
            write_variants(variants_dir)
    n_ok, n_bugs = len(ok_programs()), len(load_bugs())
    print("\n".join(lines))
    print()
    print(f"ok programs clean: {ok_clean}/{n_ok}")
    for verdict, count in counts.items():
        print(f"bugs {verdict}: {count}/{n_bugs}")
    return 0 if ok_clean == n_ok and counts["flagged on its line only"] == n_bugs else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--score", action="store_true", help="check the corpus and print the score")
    parser.add_argument("--variants", type=Path, help="also write the bug variants to this directory")
    args = parser.parse_args()
    if not args.score:
        parser.error("nothing to do: pass --score")
    sys.exit(score(args.variants))
