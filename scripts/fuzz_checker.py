"""Differential fuzzing of tyr's static checker against torch.

Generates random torch programs over symbolic sizes (scripts/fuzz), checks them all in one
mypy run with tyr's plugin while torch runs them with concrete sizes, and prints the false
alarms, wrong shapes, missed failures, internal errors and coverage, then a reproduction of
every failure pattern, grouped by op::

    python -m scripts.fuzz_checker --seed 0 --programs 2000
    python -m scripts.fuzz_checker --seed 3 --programs 200 --ops 12 --keep /tmp/fuzz --every

Exit status 1 when any target is missed (false alarms, wrong shapes, internal errors, or
fewer than 95% of torch's failures caught on their line).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from scripts.fuzz.generate import AVOIDABLE, BUGS, Options
from scripts.fuzz.menu import MENU, select
from scripts.fuzz.run import CACHE, fuzz
from scripts.fuzz.score import catalogue, counts_by_op, summary

CAUGHT_TARGET = 0.95


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scripts.fuzz_checker", description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--programs", type=int, default=500)
    parser.add_argument("--ops", type=int, default=8, help="steps per program")
    parser.add_argument("--mistakes", type=float, default=0.3, help="share of programs ending in a deliberate mistake")
    parser.add_argument("--skip", default="", help="ops or families of the menu to leave out (comma-separated)")
    parser.add_argument("--only", default="", help="only these ops or families of the menu (comma-separated)")
    parser.add_argument("--avoid", default="", help=f"idioms not to write, of {', '.join(sorted(AVOIDABLE))} (comma-separated)")
    parser.add_argument("--keep", type=Path, help="write the generated modules here (for debugging)")
    parser.add_argument("--cache", type=Path, default=CACHE, help="mypy's cache directory")
    parser.add_argument("--every", action="store_true", help="a reproduction for every finding, not one per pattern")
    parser.add_argument("--examples", type=int, default=1, help="reproductions shown per pattern")
    args = parser.parse_args(argv)

    menu = select(MENU, only=_names(args.only), skip=_names(args.skip))
    options = Options(ops=args.ops, mistake_rate=args.mistakes, seed=args.seed, menu=menu, avoid=frozenset(_names(args.avoid)))
    outcome = fuzz(args.seed, args.programs, options, keep=args.keep, cache=args.cache)
    totals = outcome.scored.totals
    findings = outcome.scored.findings
    print(catalogue(findings, every=args.every, examples=args.examples))
    if findings:
        print("\n==== findings by op ====")
        print(counts_by_op(findings))
    print(f"\n==== python -m scripts.fuzz_checker --seed {args.seed} --programs {args.programs} --ops {args.ops} ====")
    print(summary(totals, outcome.seconds))
    if BUGS:
        print(f"fuzzer bugs        {sum(BUGS.values())} op attempts raised while writing a step:")
        for text, n in BUGS.most_common(10):
            print(f"  [{n}x] {text[:200]}")
    if args.keep is not None:
        print(f"programs kept in {args.keep}")
    ok = (
        totals.false_alarms == 0
        and totals.wrong_shapes == 0
        and totals.internal == 0
        and totals.crashed == 0
        and totals.caught_share >= CAUGHT_TARGET
    )
    return 0 if ok else 1


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


if __name__ == "__main__":
    sys.exit(main())
