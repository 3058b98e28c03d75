"""Locals first assigned a display of tensors, or a shape, and assigned again with other sizes,
under mypy's defaults: torch types every `Tensor` alike and a shape as `torch.Size`, so plain mypy
accepts each assignment here."""

from __future__ import annotations

import torch


def buffers(flag: bool) -> list[torch.Tensor]:
    outs = [torch.zeros(3)]
    outs = [torch.zeros(4), torch.ones(4)]
    by_name = {"mean": torch.zeros(3)}
    by_name = {"mean": torch.zeros(8)}
    pair = (torch.zeros(3), 1)
    pair = (torch.zeros(4), 2)
    shape = torch.zeros(3).shape
    shape = torch.zeros(4, 5).shape
    count: int = "4"  # plain mypy's own error, so that this program is checked
    print(by_name, pair, shape, count)
    return outs
