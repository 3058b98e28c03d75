"""`python -m tyr verify`: runnable checks that distributed training computes what it should.

Modules: `checks` (the command: the checks and their table), `harness` (runs that must
agree: fixed micro-batches through the real trainer), `runs` (the compared configurations),
`worker` (the multi-process half, under torchrun).
"""

from tyr.verify.checks import main

__all__ = ["main"]
