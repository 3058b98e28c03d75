"""whisper's transcribe loop: a tensor local of partly unknown shape, an empty list (mypy checks the loop
body again), then a nested function.  tyr once crashed mypy here (a name with no declaration)."""

import torch


def transcribe(n: int) -> None:
    for _ in range(n):
        x = torch.zeros(n, 3)  # noqa: F841
        segments = []  # noqa: F841  (mypy's own error: needs a type annotation)

        def add() -> None: ...
