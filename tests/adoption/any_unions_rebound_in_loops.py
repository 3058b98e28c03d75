"""A name first bound to a union with `Any` (karpathy/llama2.c's training loop: `loss =
raw_model.last_loss`, where `Module.__getattr__` gives `Tensor | Module` and plain mypy reports
the call), then rebound by an operator on it in a loop or a branch (`loss = loss / steps`).  The
value is the union of each member's result, and where the paths meet mypy gives the name its
declared union back: tyr once rebound it to the tensor member's result, and `.item()` after the
loop failed on a `float` member.
"""

from typing import Any, Union

import torch
from torch import nn


def accumulate(model: nn.Module, steps: int) -> float:
    for _ in range(steps):
        loss = model.last_loss()  # plain mypy's error: a Tensor is not callable
        loss = loss / steps
    return loss.item() * steps


def halved(m: Union[Any, torch.Tensor, int], c: bool) -> int:
    x = m
    if c:
        x = m
        x = x / 2
    x.no_such_method()  # plain mypy's error on the `int`
    return x.__index__()
