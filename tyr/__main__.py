"""tyr's command line (data commands are `python -m tyr.data`).

python -m tyr shapes examples/gpt.py             # per function, each name's shape, then coverage
python -m tyr shapes tyr/models --json           # the same for tools
python -m tyr shapes examples/gpt.py --comment out/   # a copy with `# (B, T, C)` after each assignment
python -m tyr verify [--family gpt] [--procs 2] [trainer flags]   # distributed training checks (tyr.verify.checks)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from tyr._shapes_collect import collect
from tyr._shapes_show import as_json, commented, text


COMMANDS = ("shapes", "verify")


def main(argv: Sequence[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m tyr {{{','.join(COMMANDS)}}} ...   (data: python -m tyr.data)", file=sys.stderr)
        return 2
    if argv[0] == "verify":
        from tyr.verify import main as verify  # torch.distributed and the trainers: only when asked for

        return verify(argv[1:])
    return _shapes(argv[1:])


def _shapes(argv: Sequence[str]) -> int:
    shapes = argparse.ArgumentParser(
        prog="python -m tyr shapes", description="the shapes tyr infers, per function (mypy with tyr's plugin)"
    )
    shapes.add_argument("paths", nargs="+", help="files or packages, as given to mypy")
    shapes.add_argument("--json", action="store_true", help="print JSON instead of text")
    shapes.add_argument(
        "--comment", metavar="DIR", type=Path, help="write copies of the files with shape comments to DIR"
    )
    shapes.add_argument("--config-file", help="mypy's configuration (default: found as mypy finds it)")
    options = shapes.parse_args(argv)

    report = collect(options.paths, options.config_file)
    print(as_json(report) if options.json else text(report))
    if report.errors:
        print(f"(mypy reported {len(report.errors)} lines of errors and notes: run mypy to see them)", file=sys.stderr)
    if options.comment is not None:
        root = Path(*_common_parts([file.path.resolve().parent for file in report.files]))
        for file in report.files:
            target = options.comment / file.path.resolve().relative_to(root)
            target.parent.mkdir(parents=True, exist_ok=True)
            bindings = [b for function in file.functions for b in function.bindings]
            target.write_text(commented(file.path.read_text(), bindings))
            print(f"wrote {target}", file=sys.stderr)
    return 0


def _common_parts(directories: Sequence[Path]) -> tuple[str, ...]:
    parts = directories[0].parts if directories else ("/",)
    for directory in directories[1:]:
        n = 0
        while n < min(len(parts), len(directory.parts)) and parts[n] == directory.parts[n]:
            n += 1
        parts = parts[:n]
    return parts


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
