"""The two truths about a module of programs: what torch does, and what mypy (with tyr) says.

`run_torch` executes the module's source as written, calls each program with concrete
tensors (sizes: the program's `values`) and records, for every `reveal_type` line reached,
the shape (or int) it was given, and the line where torch raised, if any.

`run_mypy` checks all the modules in one mypy run, with the project's configuration (as
tests/test_mypy_corpus.py builds it), and returns the errors and revealed types by file and
line.  The plugin's internal errors are reported by the plugin as `[tyr-internal]` errors on
their line (TYR_MYPY_PLUGIN_RAISE is left unset so that one crash cannot hide the run); a
crash of mypy itself names the program it was checking, which is dropped and the rest checked
again.
"""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
import types
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from scripts.fuzz.program import SYMBOLS, Placed, Program

ROOT = Path(__file__).resolve().parents[2]
STUBS = ROOT / "typed_stubs"


# -- torch ---------------------------------------------------------------------------------------


@dataclass
class TorchResult:
    """What one program did: `seen[line]` a shape tuple or an int; `failed_line` where it raised."""

    seen: dict[int, tuple[int, ...] | int | str] = field(default_factory=dict)
    failed_line: int | None = None
    error: str | None = None


def arguments(program: Program, config: type) -> dict[str, Any]:
    """Concrete arguments for the program's parameters."""
    values = program.values
    args: dict[str, Any] = {}
    for p in program.params:
        if p.kind == "tensor":
            shape = [_size(values, s) for s in p.shape]
            if p.integer_below is None:
                args[p.name] = torch.randn(shape)
            else:
                args[p.name] = torch.randint(0, _size(values, p.integer_below), shape)
        elif p.kind == "dim":
            args[p.name] = values[p.name.upper()]
        else:
            args[p.name] = config(**{s.lower(): values.get(s, 0) for s in SYMBOLS})
    return args


def _size(values: dict[str, int], text: str) -> int:
    return values[text] if text in values else int(text)


def run_torch(source: str, filename: str, placed: list[Placed], seed: int = 0) -> list[TorchResult]:
    """Run every program of the module; one result per program, in order."""
    module = types.ModuleType(f"_tyr_fuzz_{abs(hash(filename))}")
    module.__file__ = filename
    sys.modules[module.__name__] = module  # dataclasses look their module up
    try:
        exec(compile(source, filename, "exec"), module.__dict__)
        results: list[TorchResult] = []
        current = TorchResult()

        def record(value: object) -> object:
            line = sys._getframe(1).f_lineno
            if isinstance(value, torch.Tensor):
                current.seen[line] = tuple(value.shape)
            elif isinstance(value, int):
                current.seen[line] = int(value)
            else:
                current.seen[line] = type(value).__name__
            return value

        module.__dict__["reveal_type"] = record
        config = module.__dict__["Config"]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for index, place in enumerate(placed):
                current = TorchResult()
                torch.default_generator.manual_seed(seed * 100_003 + index)
                function = module.__dict__[place.program.name]
                try:
                    function(**arguments(place.program, config))
                except Exception as err:  # noqa: BLE001 - torch's failures are the data
                    current.failed_line = _failing_line(err, filename, place.program.name)
                    current.error = f"{type(err).__name__}: {str(err).strip().splitlines()[0] if str(err).strip() else ''}"
                results.append(current)
        return results
    finally:
        del sys.modules[module.__name__]


def _failing_line(err: BaseException, filename: str, function: str) -> int | None:
    line = None
    tb = err.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_filename == filename and code.co_name == function:
            line = tb.tb_lineno
        tb = tb.tb_next
    return line


# -- mypy ----------------------------------------------------------------------------------------


@dataclass
class MypyReport:
    """mypy's messages by resolved file path, then line: errors ("message  [code]") and revealed types."""

    errors: dict[str, dict[int, list[str]]] = field(default_factory=dict)
    revealed: dict[str, dict[int, str]] = field(default_factory=dict)
    crashed: list[tuple[str, int, str]] = field(default_factory=list)  # (file, line, traceback tail)
    seconds: float = 0.0


_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): (?P<kind>error|note): (?P<message>.*)$")
_REVEALED = re.compile(r'^Revealed type is "(?P<type>.*)"$')


def project_config(directory: Path) -> Path:
    """The project's mypy.ini without its `files`, with absolute paths (as the corpus test builds it)."""
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    section = config["mypy"]
    section.pop("files", None)
    paths = [str((ROOT / p.strip()).resolve()) for p in section.get("mypy_path", "").split(",") if p.strip()]
    section["mypy_path"] = ",".join(paths)
    target = directory / "mypy.ini"
    with target.open("w") as out:
        config.write(out)
    return target


def parse_mypy_output(output: str, report: MypyReport) -> None:
    for raw in output.splitlines():
        match = _LINE.match(raw)
        if match is None:
            continue
        path = str(Path(match["path"]).resolve())
        line = int(match["line"])
        message = match["message"]
        if match["kind"] == "error":
            report.errors.setdefault(path, {}).setdefault(line, []).append(message)
        else:
            revealed = _REVEALED.match(message)
            if revealed is not None:
                report.revealed.setdefault(path, {})[line] = revealed["type"]


def run_mypy(files: list[Path], directory: Path, cache: Path, timeout: float = 1800) -> MypyReport:
    """Check `files` in one mypy run (more only if mypy crashes: the crashing file is dropped)."""
    import time

    config = project_config(directory)
    env = {k: v for k, v in os.environ.items() if k != "TYR_MYPY_PLUGIN_RAISE"}
    env["PYTHONPATH"] = str(ROOT)
    report = MypyReport()
    remaining = list(files)
    start = time.perf_counter()
    for _ in range(50):
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
            "--hide-error-context",
            *(str(f) for f in remaining),
            str(STUBS),
        ]
        done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout, check=False)
        report.errors, report.revealed = {}, {}  # a run after a crash reports everything again
        parse_mypy_output(done.stdout, report)
        if done.returncode in (0, 1) and "Traceback" not in done.stderr:
            break
        crash = _crash_site(done.stdout + "\n" + done.stderr)
        if crash is None or Path(crash[0]).resolve() not in [f.resolve() for f in remaining]:
            raise RuntimeError(f"mypy failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")
        path, line = Path(crash[0]).resolve(), crash[1]
        report.crashed.append((str(path), line, done.stderr[-2000:]))
        if not _blank_function(path, line, signature=(str(path), line) in [c[:2] for c in report.crashed[:-1]]):
            raise RuntimeError(f"mypy crashed outside a program ({path}:{line}):\n{done.stderr[-3000:]}")
    report.seconds = time.perf_counter() - start
    return report


_CRASH = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: INTERNAL ERROR", re.MULTILINE)


def _crash_site(text: str) -> tuple[str, int] | None:
    match = _CRASH.search(text)
    return None if match is None else (match["path"], int(match["line"]))


def _blank_function(path: Path, line: int, signature: bool = False) -> bool:
    """Replace the body of the function holding `line` by `pass` lines (line numbers stay); its parameters too."""
    lines = path.read_text().splitlines()
    start = line - 1
    while start >= 0 and not lines[start].startswith("def "):
        start -= 1
    if start < 0:
        return False
    if signature:
        lines[start] = lines[start].split("(", 1)[0] + "() -> None:"
    end = start + 1
    while end < len(lines) and (lines[end].startswith(" ") or not lines[end].strip()):
        end += 1
    for i in range(start + 1, end):
        if lines[i].strip():
            lines[i] = "    pass"
    path.write_text("\n".join(lines) + "\n")
    return True
