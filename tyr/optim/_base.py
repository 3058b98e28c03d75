"""What every tyr optimizer shares: the `step(closure)` protocol around one `_update()`."""

from __future__ import annotations

from collections.abc import Callable
from typing import overload

import torch


class ClosureStep(torch.optim.Optimizer):
    """`step()` evaluates an optional closure with gradients on, then runs `_update()` without them."""

    def _update(self) -> None:
        raise NotImplementedError

    @overload
    def step(self, closure: None = None) -> None: ...

    @overload
    def step(self, closure: Callable[[], float]) -> float: ...

    @torch.no_grad()
    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Run one update; returns ``closure()`` (computed first, with gradients) if given."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        self._update()
        return loss
