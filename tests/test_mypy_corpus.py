"""The mypy corpus: small programs checked by real mypy with tyr's plugin and stubs.

Each program under `tests/mypy_corpus/` marks what mypy must say about it on the line
it concerns, in a comment at the end of the line:

    y = linear(x, w)  # E: Dimension M of "linear": bound to 768 by argument "x"
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[32], Literal[512]]"

`# E: text` expects an error whose message (with its `[code]`) contains `text`; `# N:
text` expects exactly the note `text`.  A line may carry several.  Everything mypy
reports must be expected, so a program without marks must check clean.  The examples
(`examples/`) are checked in the same run, and must be clean.

All programs are checked in one mypy run (the project's `mypy.ini`, without its
`files`), shared by the pytest workers.  `tests/mypy_corpus/incremental/<case>/` holds
programs checked twice with one cache: `*.py` first, then with each `*.py.next`
replacing its `*.py`, so the second run reads the other modules' types from the cache.
"""

from __future__ import annotations

import configparser
import json
import os
import re
import shutil
import subprocess
import sys
import tokenize
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "mypy_corpus"
INCREMENTAL = CORPUS / "incremental"
EXAMPLES = ROOT / "examples"
STUBS = ROOT / "typed_stubs"

_MARK = re.compile(r"#\s*([EN]):\s*")
_OUTPUT = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): (?P<kind>error|note): (?P<message>.*)$")


@dataclass(frozen=True)
class Report:
    kind: str  # "E" or "N"
    line: int
    message: str


def expectations(path: Path) -> list[Report]:
    """The `# E:` / `# N:` marks of a program."""
    found: list[Report] = []
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type != tokenize.COMMENT:
                continue
            parts = _MARK.split(token.string)
            # parts: [before, kind, text, kind, text, ...]
            for kind, text in zip(parts[1::2], parts[2::2]):
                text = text.split("  # ", 1)[0]  # a plain comment may follow the mark
                found.append(Report(kind, token.start[0], text.strip()))
    return found


def parse_output(output: str) -> dict[Path, list[Report]]:
    reports: dict[Path, list[Report]] = {}
    for line in output.splitlines():
        match = _OUTPUT.match(line)
        if match is None:
            continue
        path = Path(match["path"])
        path = (path if path.is_absolute() else ROOT / path).resolve()
        kind = "E" if match["kind"] == "error" else "N"
        reports.setdefault(path, []).append(Report(kind, int(match["line"]), match["message"]))
    return reports


def mismatches(expected: list[Report], actual: list[Report]) -> list[str]:
    """What differs between the marks and mypy's reports, one line each (empty when they agree)."""
    problems: list[str] = []
    unmatched = list(actual)
    for want in expected:
        for got in unmatched:
            if got.kind == want.kind and got.line == want.line and _matches(want, got):
                unmatched.remove(got)
                break
        else:
            problems.append(f"line {want.line}: expected {want.kind}: {want.message}")
    problems.extend(f"line {got.line}: unexpected {got.kind}: {got.message}" for got in unmatched)
    return problems


_CODE = re.compile(r"^(?P<text>.*?)\s*\[(?P<code>[a-z-]+)\]$")


def _matches(want: Report, got: Report) -> bool:
    """A note matches exactly; an error when its message contains the mark's text, and has its `[code]` if given."""
    if want.kind == "N":
        return want.message == got.message.strip()  # (mypy indents the lines of some notes)
    wanted, got_text = _CODE.match(want.message), _CODE.match(got.message)
    if wanted is None:
        return want.message in got.message
    return got_text is not None and wanted["code"] == got_text["code"] and wanted["text"] in got_text["text"]


# -- running mypy ---------------------------------------------------------------------------------


def project_config(directory: Path, extra_paths: list[Path], *, as_users_run_it: bool = False) -> Path:
    """The project's mypy.ini without its `files` (the corpus names its own), paths made absolute.

    `as_users_run_it`: the settings the README recommends to a project adopting tyr
    (the plugin and `allow_redefinition`, mypy's defaults otherwise), not tyr's own strict ones.
    """
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    section = config["mypy"]
    section.pop("files", None)
    if as_users_run_it:
        for option in ("strict", "warn_unreachable"):
            section.pop(option, None)
    paths = [str((ROOT / p.strip()).resolve()) for p in section.get("mypy_path", "").split(",") if p.strip()]
    section["mypy_path"] = ",".join([*paths, *(str(p) for p in extra_paths)])
    target = directory / "mypy.ini"
    with target.open("w") as out:
        config.write(out)
    return target


def run_mypy(files: list[Path], config: Path, cache: Path) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TYR_MYPY_PLUGIN_RAISE": "1"}
    command = [
        sys.executable,
        "-m",
        "mypy",
        "--config-file",
        str(config),
        "--cache-dir",
        str(cache),
        "--no-error-summary",
        "--show-traceback",
        *(str(f) for f in files),
        str(STUBS),
    ]
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    if done.returncode not in (0, 1) or "Traceback" in done.stderr:
        raise RuntimeError(f"mypy failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    return done.stdout


def corpus_programs() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*.py") if INCREMENTAL not in p.parents)


def example_programs() -> list[Path]:
    return sorted(EXAMPLES.glob("*.py"))


def incremental_cases() -> list[Path]:
    return sorted(p for p in INCREMENTAL.iterdir() if p.is_dir()) if INCREMENTAL.is_dir() else []


def _run_everything(work: Path) -> dict[str, object]:
    """Every mypy run the corpus needs; the results keyed by program path (as strings, for JSON)."""
    cache = work / "cache"
    main_config = project_config(work, [])
    main = parse_output(run_mypy([*corpus_programs(), *example_programs()], main_config, cache))
    results: dict[str, object] = {str(p): [r.__dict__ for r in reports] for p, reports in main.items()}

    # Incremental: the cases copied under one root (so each case is a package), checked twice with one cache.
    root = work / "incremental"
    for case in incremental_cases():
        shutil.copytree(case, root / case.name, ignore=shutil.ignore_patterns("__pycache__"))
    if incremental_cases():
        (work / "incremental-config").mkdir()
        config = project_config(work / "incremental-config", [root])
        first_files = sorted(root.rglob("*.py"))
        first = parse_output(run_mypy(first_files, config, cache))
        for nxt in sorted(root.rglob("*.py.next")):
            nxt.replace(nxt.with_suffix(""))
        second = parse_output(run_mypy(first_files, config, cache))
        for run, reports in (("first", first), ("second", second)):
            for path, found in reports.items():
                relative = path.relative_to(root.resolve())
                results[f"{run}:{relative}"] = [r.__dict__ for r in found]
    return results


@pytest.fixture(scope="session")
def mypy_results(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """The corpus checked once per test session, whichever worker gets here first."""
    try:
        run_id = str(request.getfixturevalue("testrun_uid"))
    except pytest.FixtureLookupError:
        run_id = uuid.uuid4().hex
    shared = tmp_path_factory.getbasetemp().parent / f"tyr-mypy-corpus-{run_id}"
    shared.mkdir(exist_ok=True)
    with FileLock(str(shared / "lock")):
        results_file = shared / "results.json"
        if not results_file.exists():
            results_file.write_text(json.dumps(_run_everything(shared)))
        loaded: dict[str, object] = json.loads(results_file.read_text())
        return loaded


def _reports(results: dict[str, object], key: str) -> list[Report]:
    raw = results.get(key, [])
    assert isinstance(raw, list)
    return [Report(**item) for item in raw]


def _id(path: Path) -> str:
    return str(path.relative_to(ROOT))


@pytest.mark.parametrize("program", corpus_programs() + example_programs(), ids=_id)
def test_program(program: Path, mypy_results: dict[str, object]) -> None:
    problems = mismatches(expectations(program), _reports(mypy_results, str(program.resolve())))
    assert not problems, f"{_id(program)}:\n  " + "\n  ".join(problems)


@pytest.mark.parametrize("case", incremental_cases(), ids=lambda p: p.name)
def test_incremental(case: Path, mypy_results: dict[str, object]) -> None:
    problems: list[str] = []
    for program in sorted(case.rglob("*.py")):
        relative = program.relative_to(INCREMENTAL)
        following = program.with_name(program.name + ".next")
        first = mismatches(expectations(program), _reports(mypy_results, f"first:{relative}"))
        second_source = following if following.exists() else program
        second = mismatches(expectations(second_source), _reports(mypy_results, f"second:{relative}"))
        problems += [f"{relative} (first run): {p}" for p in first]
        problems += [f"{relative} (second run, from the cache): {p}" for p in second]
    assert not problems, "\n  ".join(problems)


def test_corpus_size() -> None:
    """The corpus covers the forms and ops of SHAPES.md §2-§6 with at least 150 programs, good and bad."""
    programs = corpus_programs()
    bad = [p for p in programs if any(r.kind == "E" for r in expectations(p))]
    assert len(programs) + len(incremental_cases()) >= 150
    assert len(bad) >= 50 and len(programs) - len(bad) >= 50


def test_marks_are_read() -> None:
    """The harness itself: marks are found in comments only, several to a line."""
    source = CORPUS / "harness" / "marks.py"
    found = expectations(source)
    assert Report("N", 7, 'Revealed type is "str"') in found
    assert [r.kind for r in found if r.line == 8] == ["E", "E"]
    assert not any("not a mark" in r.message for r in found)
    wrong = "Incompatible types in assignment (expression has type"
    output = "\n".join(
        [
            f"{source}:8: error: {wrong} \"str\", variable has type \"int\")  [assignment]",
            f"{source}:8: error: {wrong} \"int\", variable has type \"str\")  [assignment]",
            f"{source}:7: note: odd",
        ]
    )
    problems = mismatches(found, parse_output(output)[source.resolve()])
    assert problems == ['line 7: expected N: Revealed type is "str"', "line 7: unexpected N: odd"]

