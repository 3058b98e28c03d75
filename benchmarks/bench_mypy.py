"""What static shape checking costs: mypy with and without tyr's plugin and stubs.

Run: `python benchmarks/bench_mypy.py` (add `--repeats N` for steadier numbers).
Two measurements, each plain mypy against mypy with tyr, in fresh processes:

* examples: the project's `mypy.ini` (strict) over `examples/`; "plain" drops the
  plugin and the stubs (so the examples' shape annotations are errors there, which
  mypy still has to analyse).  Cold (an empty cache: mypy analyses torch too, which
  dominates), warm (the same run again with the cache) and edited (one example
  changed, so that it is checked again).
* package: a large real package that never heard of tyr, timm 1.0.31 (downloaded
  with `pip download` into `~/.cache/tyr-bench/`, or `--package DIR`), with a
  user's settings (`ignore_missing_imports`, `follow_imports = silent`); tyr adds
  `plugins = tyr.mypy_plugin`, the README's configuration (`--redefinition` also sets
  `allow_redefinition = True` on both sides, the option for annotated models).  Cold, warm, and
  "package": torch already in the cache, the package not (the package's own
  checking, which the cold time dilutes with torch's).  `--package none` skips it.

Rounds interleave plain and tyr runs.  Each time is the median over the rounds, of
CPU time (user + system of the mypy process), which another load on the machine
disturbs far less than wall time (also shown); `[min-max]` is the spread.  The
ratio is tyr's time over plain mypy's; the target is at most 1.2 for the package
(cold) and 1.3 for the examples.
"""

from __future__ import annotations

import argparse
import compileall
import configparser
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "timm==1.0.31"
CACHE = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tyr-bench"


@dataclass
class Timings:
    cpu: dict[str, list[float]] = field(default_factory=dict)
    wall: dict[str, list[float]] = field(default_factory=dict)

    def add(self, phase: str, cpu: float, wall: float) -> None:
        self.cpu.setdefault(phase, []).append(cpu)
        self.wall.setdefault(phase, []).append(wall)


def write_config(directory: Path, *, tyr: bool) -> Path:
    """The project's mypy.ini for copies of the examples in `directory`, with or without tyr's plugin and stubs."""
    config = configparser.ConfigParser()
    config.read(ROOT / "mypy.ini")
    section = config["mypy"]
    section.pop("files", None)
    section["mypy_path"] = ",".join([*([str(ROOT / "typed_stubs")] if tyr else []), str(directory)])
    if not tyr:
        section.pop("plugins", None)
    path = directory / ("tyr.ini" if tyr else "plain.ini")
    with path.open("w") as out:
        config.write(out)
    return path


def write_package_config(directory: Path, *, tyr: bool, redefinition: bool) -> Path:
    """A user's settings for a package of their own; with tyr, its plugin."""
    lines = ["[mypy]", "ignore_missing_imports = True", "follow_imports = silent"]
    if redefinition:
        lines.append("allow_redefinition = True")
    if tyr:
        lines.append("plugins = tyr.mypy_plugin")
    path = directory / ("package-tyr.ini" if tyr else "package-plain.ini")
    path.write_text("\n".join(lines) + "\n")
    return path


def run_mypy(
    config: Path, cache: Path, targets: list[str], *, stubs: bool = False, cwd: Path = ROOT
) -> tuple[float, float]:
    """CPU and wall seconds one mypy run takes (in a fresh process, as a user runs it).

    Python starts without `site` (`-S`), with only the checkout and site-packages on its
    path: mypy takes its package search path from `sys.path`, and a `.pth` file (as
    `scripts/setup.sh` writes) would otherwise show tyr's torch stubs to plain mypy too.
    With `stubs`, the stubs directory is on the path, as site-packages holds them for an
    installed tyr (the examples' configuration names them itself).
    """
    command = [sys.executable, "-S", "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache), *targets]
    path = [str(ROOT), *([str(ROOT / "typed_stubs")] if stubs else []), sysconfig.get_paths()["purelib"]]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    env.pop("MYPYPATH", None)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed:\n{done.stdout}\n{done.stderr}")
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime, wall


def measure_examples(work: Path, repeats: int) -> dict[bool, Timings]:
    """Cold, warm and edited runs over copies of the examples, plain and tyr interleaved."""
    examples = sorted((ROOT / "examples").glob("*.py"))
    configs = {tyr: write_config(work, tyr=tyr) for tyr in (False, True)}
    timings = {False: Timings(), True: Timings()}
    for round_ in range(repeats):
        for tyr in (False, True):
            config = configs[tyr]
            copies = work / f"examples_{config.stem}_{round_}"
            shutil.copytree(ROOT / "examples", copies, ignore=shutil.ignore_patterns("__pycache__"))
            targets = [str(copies / p.name) for p in examples] + ([str(ROOT / "typed_stubs")] if tyr else [])
            cache = work / f"cache-{config.stem}-{round_}"
            timings[tyr].add("cold", *run_mypy(config, cache, targets))
            timings[tyr].add("warm", *run_mypy(config, cache, targets))
            edited = copies / examples[0].name
            edited.write_text(edited.read_text() + f"\n_edited_{round_} = 1\n")
            timings[tyr].add("edited", *run_mypy(config, cache, targets))
    return timings


def measure_package(package: Path, work: Path, repeats: int, *, redefinition: bool = False) -> dict[bool, Timings]:
    """Runs over a package (`mypy <name>` in its parent directory), plain and tyr interleaved.

    cold: an empty cache; warm: the same run again; package: a cache that holds torch
    (and tyr's stubs) but not the package, which isolates the package's own checking.
    """
    configs = {tyr: write_package_config(work, tyr=tyr, redefinition=redefinition) for tyr in (False, True)}
    torch_only = work / "torch_only"
    torch_only.mkdir()
    (torch_only / "uses_torch.py").write_text("import torch\nimport torch.nn.functional\n")
    templates: dict[bool, Path] = {}
    for tyr in (False, True):
        templates[tyr] = work / f"cache-torch-{tyr}"
        run_mypy(configs[tyr], templates[tyr], ["uses_torch.py"], stubs=tyr, cwd=torch_only)
    timings = {False: Timings(), True: Timings()}
    for round_ in range(repeats):
        for tyr in (False, True):
            cache = work / f"cache-package-{tyr}-{round_}"
            for phase in ("cold", "warm"):
                timings[tyr].add(phase, *run_mypy(configs[tyr], cache, [package.name], stubs=tyr, cwd=package.parent))
            cache = work / f"cache-package-only-{tyr}-{round_}"
            shutil.copytree(templates[tyr], cache)
            timings[tyr].add("package", *run_mypy(configs[tyr], cache, [package.name], stubs=tyr, cwd=package.parent))
    return timings


def find_package(option: str | None) -> Path | None:
    """The package to measure: `--package DIR`, or timm's source, downloaded once into the cache."""
    if option == "none":
        return None
    if option is not None:
        return Path(option).resolve()
    name, _, version = PACKAGE.partition("==")
    source = CACHE / f"{name}-{version}" / name
    if not source.is_dir():
        download = CACHE / "downloads"
        download.mkdir(parents=True, exist_ok=True)
        pip = [sys.executable, "-m", "pip", "download", PACKAGE, "--no-deps", "--quiet", "-d", str(download)]
        subprocess.run(pip, check=True)
        wheel = next(download.glob(f"{name}-{version}-*.whl"))
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.namelist() if m.startswith(f"{name}/")]
            archive.extractall(source.parent, members)
    return source


def report(title: str, timings: dict[bool, Timings], phases: tuple[str, ...]) -> None:
    print(title, flush=True)
    print(f"{'':8} {'plain mypy (cpu)':>24} {'with tyr (cpu)':>24} {'ratio':>6}   {'wall plain':>10} {'wall tyr':>9} {'ratio':>6}")
    for phase in phases:
        plain, tyr = timings[False], timings[True]
        cells = [_cell(plain.cpu[phase]), _cell(tyr.cpu[phase])]
        ratio = statistics.median(tyr.cpu[phase]) / statistics.median(plain.cpu[phase])
        wall_plain, wall_tyr = statistics.median(plain.wall[phase]), statistics.median(tyr.wall[phase])
        print(
            f"{phase:8} {cells[0]:>24} {cells[1]:>24} {ratio:6.2f}   "
            f"{wall_plain:9.1f}s {wall_tyr:8.1f}s {wall_tyr / wall_plain:6.2f}",
            flush=True,
        )


def _cell(values: list[float]) -> str:
    return f"{statistics.median(values):.1f}s [{min(values):.1f}-{max(values):.1f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="rounds of runs (median)")
    parser.add_argument("--package", help="a package directory to measure (default: timm's source, downloaded); 'none' skips it")
    parser.add_argument("--no-examples", action="store_true", help="skip the examples")
    parser.add_argument("--redefinition", action="store_true", help="the package with allow_redefinition, plain and tyr")
    options = parser.parse_args()
    package = find_package(options.package)
    # Byte-compiled, as an installed package is: every mypy run imports the plugin, and where
    # PYTHONDONTWRITEBYTECODE is set Python would compile its sources again in each run.
    compileall.compile_dir(ROOT / "tyr", quiet=1)
    with tempfile.TemporaryDirectory(prefix="tyr-bench-mypy-") as scratch:
        work = Path(scratch)
        if not options.no_examples:
            names = ", ".join(p.name for p in sorted((ROOT / "examples").glob("*.py")))
            timings = measure_examples(work, options.repeats)
            report(f"mypy over the examples ({names}), median of {options.repeats}", timings, ("cold", "warm", "edited"))
        if package is not None:
            files = sum(1 for _ in package.rglob("*.py"))
            timings = measure_package(package, work, options.repeats, redefinition=options.redefinition)
            setting = ", allow_redefinition" if options.redefinition else ""
            title = f"mypy over {package} ({files} files{setting}), median of {options.repeats}"
            report(title, timings, ("cold", "warm", "package"))


if __name__ == "__main__":
    main()
