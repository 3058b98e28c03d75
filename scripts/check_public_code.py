"""Does adopting tyr add errors to code that never heard of it?  mypy on real projects, with and without tyr.

    python scripts/check_public_code.py /path/to/nanoGPT /path/to/minGPT ...
    python scripts/check_public_code.py --check-untyped-defs --json report.json /path/to/project

Each directory is a project, checked as its author would check it with mypy's
defaults and the usual settings for third-party imports (`ignore_missing_imports`,
`follow_imports = silent`), in five configurations:

* plain: no plugin, tyr's torch stubs not visible (torch's own types);
* redefinition: plain + `allow_redefinition = True`, what that setting alone changes;
* redefinition-old: plain + `allow_redefinition_old = True` (mypy's older, block-local form);
* tyr-alone: `plugins = tyr.mypy_plugin` and the stubs visible, mypy's defaults otherwise;
* tyr: tyr-alone + `allow_redefinition = True` (as the README recommends for annotated models).

Printed per project: errors that appear only with tyr (tyr against plain: the
promise is that there are none), errors that disappear with it, errors whose
wording changes, the same for tyr-alone and for redefinition against plain (which
of the two adds an error), crashes, and mypy's time with tyr over plain mypy (CPU time).  Errors are compared by file and line: an error on a line where the
other run has one too (a union's member named differently, another error code for
the same mistake) is *reworded*, not added.  Nothing here is written into the projects: configurations and caches live
in a scratch directory (or `--work`).

A project is split into *roots*, as Python would run its files: a directory of
scripts (one not inside a package) is a root, checked with that directory as the
current one, together with the packages under it; the project's own directory is
also on the search path, so `scripts/train.py` finds `import mypackage`.  Each
root is one mypy run; one cache per configuration is shared by all runs (torch is
analysed once, in a warm-up run timed separately).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import resource
import tempfile
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUBS = ROOT / "typed_stubs"
SKIP_DIRS = {"__pycache__", "node_modules", "build", "dist", "site-packages", "venv", ".venv", ".git"}

# What a user typically has: mypy's defaults, third-party imports that may be untyped or absent.
BASE_SETTINGS = {
    "python_version": f"{sys.version_info.major}.{sys.version_info.minor}",
    "ignore_missing_imports": "True",
    "follow_imports": "silent",
}
CONFIGS = {
    "plain": {},
    "redefinition": {"allow_redefinition": "True"},
    "redefinition-old": {"allow_redefinition_old": "True"},
    "tyr-alone": {"plugins": "tyr.mypy_plugin"},
    "tyr": {"plugins": "tyr.mypy_plugin", "allow_redefinition": "True"},
}
# The comparisons printed: (baseline, with, title).
COMPARISONS = [
    ("plain", "tyr-alone", "with tyr's plugin and stubs alone (no allow_redefinition)"),
    ("plain", "redefinition", "with allow_redefinition alone (no tyr)"),
    ("plain", "redefinition-old", "with allow_redefinition_old alone (no tyr)"),
]

_LINE = re.compile(r"^(?P<path>[^:\n]+):(?P<line>\d+): error: (?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$")


@dataclass(frozen=True)
class Error:
    path: str  # relative to the project
    line: int
    code: str
    message: str

    @property
    def key(self) -> tuple[str, int]:
        return (self.path, self.line)

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}  [{self.code}]"


@dataclass
class Run:
    errors: list[Error] = field(default_factory=list)
    seconds: float = 0.0
    crashes: list[str] = field(default_factory=list)


def find_roots(project: Path) -> list[tuple[Path, list[Path]]]:
    """The roots of a project (directories of scripts not inside a package), each with its files to check."""
    roots: list[tuple[Path, list[Path]]] = []
    for directory, subdirs, files in os.walk(project):
        here = Path(directory)
        subdirs[:] = sorted(d for d in subdirs if d not in SKIP_DIRS and not d.startswith("."))
        if here != project and (here / "__init__.py").exists():
            continue  # inside a package: checked with the root above it
        packages = [here / d for d in subdirs if (here / d / "__init__.py").exists()]
        targets = sorted(here / f for f in files if f.endswith(".py") and _is_module(f))
        for package in packages:
            targets += sorted(p for p in package.rglob("*.py") if not (set(p.relative_to(here).parts) & SKIP_DIRS))
        if targets:
            roots.append((here, targets))
    return roots


def _is_module(filename: str) -> bool:
    return filename[:-3].isidentifier()


def write_config(directory: Path, name: str, extra: dict[str, str], search: list[Path]) -> Path:
    settings = {**BASE_SETTINGS, **CONFIGS[name], **extra}
    if search:
        # A root below the project's directory: its scripts are top-level modules (not
        # `scripts.train` through the project's directory, which would name them twice).
        settings["mypy_path"] = ",".join(str(p) for p in search)
        settings["namespace_packages"] = "False"
    path = directory / f"{name}.ini"
    path.write_text("[mypy]\n" + "".join(f"{k} = {v}\n" for k, v in settings.items()))
    return path


def run_mypy(name: str, config: Path, cache: Path, cwd: Path, targets: list[Path]) -> tuple[str, str, int, float]:
    """One mypy run in a fresh process, as a user runs it (its output, exit status and CPU seconds).

    tyr's stubs are visible only to the tyr runs.  Time is CPU time (user + system),
    which other load on the machine disturbs far less than wall time.

    Python starts without `site` (`-S`): mypy takes its package search path from
    `sys.path`, and the `.pth` file of a checkout set up by `scripts/setup.sh` would
    otherwise show tyr's stubs to plain mypy too.  For the tyr run the stubs directory
    is on the path, as site-packages holds them for an installed tyr.  The project's folder is
    not (`PYTHONSAFEPATH`): a project's own `logging.py` (torchtitan's tools) would shadow the
    standard library's in mypy itself.
    """
    path = [*([str(ROOT), str(STUBS)] if name.startswith("tyr") else []), sysconfig.get_paths()["purelib"]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path), "PYTHONSAFEPATH": "1"}
    env.pop("MYPYPATH", None)
    command = [sys.executable, "-S", "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache)]
    command += ["--no-error-summary", "--no-pretty", "--show-error-codes", "--show-traceback"]
    command += [os.path.relpath(t, cwd) for t in targets]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return done.stdout, done.stderr, done.returncode, cpu


def parse(stdout: str, cwd: Path, project: Path) -> list[Error]:
    errors: list[Error] = []
    for line in stdout.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        path = (cwd / match["path"]).resolve()
        shown = str(path.relative_to(project.resolve())) if path.is_relative_to(project.resolve()) else str(path)
        errors.append(Error(shown, int(match["line"]), match["code"] or "misc", match["message"]))
    return errors


def check_project(project: Path, work: Path, extra: dict[str, str], names: list[str]) -> dict[str, Run]:
    runs = {name: Run() for name in names}
    for index, (root, targets) in enumerate(find_roots(project)):
        search = [project] if root != project else []
        for name in names:
            config_dir = work / "configs" / f"{project.name}-{index}"
            config_dir.mkdir(parents=True, exist_ok=True)
            config = write_config(config_dir, name, extra, search)
            stdout, stderr, code, seconds = run_mypy(name, config, work / f"cache-{name}", root, targets)
            run = runs[name]
            run.seconds += seconds
            run.errors += parse(stdout, root, project)
            if code not in (0, 1) or "Traceback" in stderr or "INTERNAL ERROR" in stdout + stderr:
                tail = (stdout + stderr).strip().splitlines()[-6:]
                run.crashes.append(f"{root.relative_to(project)} (exit {code}): " + " | ".join(tail))
            run.crashes += [str(e) for e in run.errors if e.code == "tyr-internal" and str(e) not in run.crashes]
    return runs


def difference(first: list[Error], second: list[Error]) -> tuple[list[Error], list[Error], list[tuple[Error, Error]]]:
    """Errors only in `second`, only in `first`, and pairs on one line whose message changed."""
    by_line: dict[tuple[str, int], tuple[list[Error], list[Error]]] = {}
    for index, errors in enumerate((first, second)):
        for error in errors:
            by_line.setdefault(error.key, ([], []))[index].append(error)
    added: list[Error] = []
    removed: list[Error] = []
    changed: list[tuple[Error, Error]] = []
    for olds, news in by_line.values():
        old, new = Counter(e.message for e in olds), Counter(e.message for e in news)
        gone = [e for e in olds if (old - new)[e.message]]
        came = [e for e in news if (new - old)[e.message]]
        pairs = min(len(gone), len(came))
        changed += zip(gone[:pairs], came[:pairs])
        removed += gone[pairs:]
        added += came[pairs:]
    return _dedupe(added), _dedupe(removed), changed


def _dedupe(errors: list[Error]) -> list[Error]:
    return list(dict.fromkeys(errors))


def warm_up(work: Path, extra: dict[str, str], names: list[str]) -> dict[str, float]:
    """Analyse torch once per configuration (a one-line program), so projects are timed with torch cached."""
    program = work / "warm_up"
    program.mkdir(exist_ok=True)
    (program / "warm_up.py").write_text("import torch\nimport torch.nn.functional\n")
    seconds = {}
    for name in names:
        config = write_config(program, name, extra, [])
        _, stderr, code, seconds[name] = run_mypy(name, config, work / f"cache-{name}", program, [program / "warm_up.py"])
        if code not in (0, 1):
            raise RuntimeError(f"mypy failed in the warm-up ({name}):\n{stderr}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("projects", nargs="+", type=Path)
    parser.add_argument("--check-untyped-defs", action="store_true", help="also check the bodies of unannotated functions")
    parser.add_argument("--quick", action="store_true", help="only plain and tyr (skip the runs that tell tyr's part from allow_redefinition's)")
    parser.add_argument("--work", type=Path, help="keep configurations and caches here (default: a scratch directory)")
    parser.add_argument("--json", type=Path, help="write every error of every configuration here")
    options = parser.parse_args()
    extra = {"check_untyped_defs": "True"} if options.check_untyped_defs else {}
    names = ["plain", "tyr"] if options.quick else list(CONFIGS)

    scratch = None if options.work else tempfile.mkdtemp(prefix="tyr-public-")
    work = options.work or Path(scratch or "")
    work.mkdir(parents=True, exist_ok=True)
    report: dict[str, object] = {}
    totals = {name: 0.0 for name in names}
    only_tyr_total = crashes_total = 0
    tyrs_own_total = 0  # only with tyr, and neither from allow_redefinition alone nor without it
    try:
        warm = warm_up(work, extra, names)
        print("warm-up (torch analysed, cold cache): " + ", ".join(f"{n} {s:.1f}s" for n, s in warm.items()))
        for project in options.projects:
            project = project.resolve()
            runs = check_project(project, work, extra, names)
            plain, tyr = runs["plain"], runs["tyr"]
            added, removed, changed = difference(plain.errors, tyr.errors)
            only_tyr_total += len(added)
            tyrs_own_total += len(_tyrs_own(runs, added))
            crashes_total += len(tyr.crashes)
            for name in names:
                totals[name] += runs[name].seconds
            ratio = tyr.seconds / plain.seconds if plain.seconds else float("nan")
            print(f"\n== {project.name}: {len(plain.errors)} errors plain, {len(tyr.errors)} with tyr; "
                  f"{len(added)} only with tyr, {len(removed)} gone; "
                  f"{plain.seconds:.1f}s plain, {tyr.seconds:.1f}s tyr ({ratio:.2f}x)")
            _show("only with tyr", added)
            _show("gone with tyr", removed)
            _show("reworded with tyr", [f"{old}\n      now: {new.message}" for old, new in changed])
            _show("crashes (tyr)", tyr.crashes)
            _show("crashes (plain)", plain.crashes)
            for baseline, other, title in COMPARISONS:
                if other in runs:
                    more, fewer, _ = difference(runs[baseline].errors, runs[other].errors)
                    _show(f"only {title}", more)
                    _show(f"gone {title}", fewer)
                    _show(f"crashes {title}", runs[other].crashes)
            report[str(project)] = {
                name: {"seconds": run.seconds, "errors": [str(e) for e in run.errors], "crashes": run.crashes}
                for name, run in runs.items()
            }
    finally:
        if scratch:
            shutil.rmtree(scratch, ignore_errors=True)
    ratio = totals["tyr"] / totals["plain"] if totals["plain"] else float("nan")
    print(f"\nall projects: {only_tyr_total} errors only with tyr, {crashes_total} crashes; "
          f"{totals['plain']:.1f}s plain, {totals['tyr']:.1f}s tyr ({ratio:.2f}x, torch cached)")
    if not options.quick:
        print(f"of which tyr's own (not allow_redefinition's, and also without it): {tyrs_own_total}")
    if options.json:
        options.json.write_text(json.dumps(report, indent=1))
    sys.exit(1 if (tyrs_own_total if not options.quick else only_tyr_total) or crashes_total else 0)


def _tyrs_own(runs: dict[str, Run], added: list[Error]) -> list[Error]:
    """The errors only with tyr that allow_redefinition alone does not give, and those the plugin
    alone (mypy's defaults) adds: what tyr itself adds, in either setting."""
    if "redefinition" not in runs or "tyr-alone" not in runs:
        return added
    redefinition = {(e.path, e.line) for e in difference(runs["plain"].errors, runs["redefinition"].errors)[0]}
    alone = difference(runs["plain"].errors, runs["tyr-alone"].errors)[0]
    return [e for e in added if (e.path, e.line) not in redefinition] + alone


def _show(title: str, items: Sequence[object]) -> None:
    if items:
        print(f"  {title}:")
        for item in items:
            print(f"    {item}")


if __name__ == "__main__":
    main()
