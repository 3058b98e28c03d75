"""Command line: ``python -m tyr verify [--family gpt] [--procs 2] [trainer flags]``.

``verify`` runs tyr's correctness checks of distributed training on a model and config
(see `tyr.verify.checks`). Data commands are ``python -m tyr.data``.
"""

from __future__ import annotations

import sys

COMMANDS = ("verify",)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in COMMANDS:
        print(f"usage: python -m tyr {{{','.join(COMMANDS)}}} ...   (data: python -m tyr.data)", file=sys.stderr)
        return 2
    from tyr.verify import main as verify

    return verify(argv[1:])


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
