"""One fuzzing run: generate programs, check them with mypy while torch runs them, score."""

from __future__ import annotations

import tempfile
import threading
import uuid
import time
from dataclasses import dataclass, field
from pathlib import Path

import torch

from scripts.fuzz.generate import Options, generate
from scripts.fuzz.program import Placed, Program, render_module
from scripts.fuzz.score import Scored, repro, score_program
from scripts.fuzz.truth import ROOT, MypyReport, TorchResult, run_mypy, run_torch

PER_MODULE = 200  # programs per generated module
CACHE = ROOT / ".mypy_cache" / "fuzz-checker"


@dataclass
class Outcome:
    scored: Scored
    seconds: dict[str, float] = field(default_factory=dict)
    report: MypyReport | None = None
    by_program: dict[str, Scored] = field(default_factory=dict)


def generate_programs(seed: int, count: int, options: Options) -> list[Program]:
    return [generate(seed, i, options) for i in range(count)]


def check(programs: list[Program], directory: Path, cache: Path = CACHE, seed: int = 0) -> Outcome:
    """mypy and torch on `programs` (written as modules under `directory`), scored."""
    torch.set_num_threads(1)
    directory.mkdir(parents=True, exist_ok=True)
    modules: list[tuple[Path, str, list[Placed]]] = []
    for k in range(0, len(programs), PER_MODULE):
        source, placed = render_module(programs[k : k + PER_MODULE])
        path = (directory / f"fuzz_{k // PER_MODULE:03d}.py").resolve()
        # mypy replays neither errors nor notes of a module its cache holds unchanged: a new
        # last line makes every module new to it (and keeps the cache from growing run by run).
        path.write_text(f"{source}# run {uuid.uuid4().hex}\n")
        modules.append((path, source, placed))
    seconds: dict[str, float] = {}
    reports: list[MypyReport] = []
    failure: list[BaseException] = []

    def mypy() -> None:
        try:
            reports.append(run_mypy([m[0] for m in modules], directory, cache))
        except BaseException as err:  # noqa: BLE001 - re-raised below, in the caller's thread
            failure.append(err)

    worker = threading.Thread(target=mypy)
    worker.start()
    start = time.perf_counter()
    results: list[list[TorchResult]] = [run_torch(source, str(path), placed) for path, source, placed in modules]
    seconds["torch"] = time.perf_counter() - start
    worker.join()
    if failure:
        raise failure[0]
    report = reports[0]
    seconds["mypy"] = report.seconds
    for path, _, placed in modules:
        if any(p.reveal_of for p in placed) and not report.revealed.get(str(path)):
            raise RuntimeError(f"mypy revealed nothing in {path}: was it checked? (output read from a stale cache?)")
    outcome = Outcome(Scored(), seconds, report)
    for (path, _, placed), ran in zip(modules, results):
        for place, result in zip(placed, ran):
            one = score_program(place, result, report, str(path))
            for finding in one.findings:
                finding.repro = repro(finding, place, result, report, str(path))
            outcome.scored.totals.add(one.totals)
            outcome.scored.findings.extend(one.findings)
            outcome.by_program[place.program.name] = one
    return outcome


def fuzz(seed: int, count: int, options: Options | None = None, keep: Path | None = None, cache: Path = CACHE) -> Outcome:
    """Generate `count` programs from `seed`, check and score them."""
    options = options or Options(seed=seed)
    start = time.perf_counter()
    torch.set_num_threads(1)
    programs = generate_programs(seed, count, options)
    generated = time.perf_counter() - start
    if keep is not None:
        outcome = check(programs, keep, cache, seed)
    else:
        with tempfile.TemporaryDirectory(prefix="tyr-fuzz-") as work:
            outcome = check(programs, Path(work), cache, seed)
    outcome.seconds = {"generate": generated, **outcome.seconds, "total": time.perf_counter() - start}
    return outcome
