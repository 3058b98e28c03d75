"""What static shape checking costs: mypy over the examples with and without tyr's plugin and stubs.

Run: `python benchmarks/bench_mypy.py` (add `--repeats N` for steadier numbers).
Both configurations are the project's `mypy.ini`; "plain" drops the plugin and the
stubs (so the examples' shape annotations are errors there, which mypy still has to
analyse).  Three timings each, in one run:

* cold: an empty cache (mypy analyses torch too, which dominates);
* warm: the same run again with the cache and nothing changed;
* edited: the cache, with one example changed so that it is checked again.

The last column is tyr's time over plain mypy's; the target is at most 1.3.
"""

from __future__ import annotations

import argparse
import configparser
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


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


def run_mypy(config: Path, cache: Path, files: list[Path]) -> float:
    """Seconds one mypy run takes (in a fresh process, as a user runs it).

    Python starts without `site` (`-S`), with only the checkout and site-packages on its
    path: mypy takes its package search path from `sys.path`, and a `.pth` file (as
    `scripts/setup.sh` writes) would otherwise show tyr's torch stubs to plain mypy too.
    """
    command = [sys.executable, "-S", "-m", "mypy", "--config-file", str(config), "--cache-dir", str(cache)]
    command += [str(f) for f in files]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), sysconfig.get_paths()["purelib"]])}
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if done.returncode not in (0, 1):
        raise RuntimeError(f"mypy failed:\n{done.stdout}\n{done.stderr}")
    return elapsed


def measure(config: Path, work: Path, examples: list[Path], extra: list[Path], repeats: int) -> dict[str, float]:
    """Median cold, warm and edited times over `repeats` rounds."""
    timings: dict[str, list[float]] = {"cold": [], "warm": [], "edited": []}
    for round_ in range(repeats):
        copies = work / f"examples_{config.stem}_{round_}"
        shutil.copytree(ROOT / "examples", copies, ignore=shutil.ignore_patterns("__pycache__"))
        files = [copies / p.name for p in examples]
        cache = work / f"cache-{config.stem}-{round_}"
        timings["cold"].append(run_mypy(config, cache, files + extra))
        timings["warm"].append(run_mypy(config, cache, files + extra))
        edited = files[0]
        edited.write_text(edited.read_text() + f"\n_edited_{round_} = 1\n")
        timings["edited"].append(run_mypy(config, cache, files + extra))
    return {phase: statistics.median(values) for phase, values in timings.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1, help="rounds of cold, warm and edited runs (median)")
    options = parser.parse_args()
    examples = sorted((ROOT / "examples").glob("*.py"))
    stubs = [ROOT / "typed_stubs"]
    with tempfile.TemporaryDirectory(prefix="tyr-bench-mypy-") as scratch:
        work = Path(scratch)
        plain = measure(write_config(work, tyr=False), work, examples, [], options.repeats)
        tyr = measure(write_config(work, tyr=True), work, examples, stubs, options.repeats)
    print(f"mypy over {len(examples)} examples ({', '.join(p.name for p in examples)}), median of {options.repeats}")
    print(f"{'':8} {'plain mypy':>11} {'with tyr':>10} {'ratio':>7}")
    for phase in ("cold", "warm", "edited"):
        print(f"{phase:8} {plain[phase]:10.2f}s {tyr[phase]:9.2f}s {tyr[phase] / plain[phase]:7.2f}")


if __name__ == "__main__":
    main()
