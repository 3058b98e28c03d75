"""Idioms of diffusers / transformers where tyr once added an error.

A tuple display assigned to targets that its later items read (`h, e = (h[:, :n], h[:, n:])`) is
typed as one value (`tyr.mypy_plugin._evaluation_order`); mypy reports an item that does not fit
its target at that value's line, which is the first item's, where plain mypy reports the first.

A parameter declared `Tuple[int]` that holds three ints (`tuple[int, ...]` was meant) has an
unknown number of sizes when splatted: counted as one, the view below would be 3-d, and
`interpolate`'s trilinear mode an error."""

from typing import Tuple

import torch
import torch.nn.functional as F


def split_heads(h: torch.FloatTensor, n: int) -> torch.FloatTensor:
    h, e = (
        h[:, :n],
        h[:, n:],
    )
    return h + e


def warm_start(w: torch.Tensor, patch: Tuple[int] = (1, 2, 2)) -> torch.Tensor:
    x = w.view(-1, 1, *patch)
    return F.interpolate(x, size=(1, 4, 4), mode="trilinear", align_corners=False)
