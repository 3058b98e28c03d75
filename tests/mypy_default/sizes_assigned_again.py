"""A local holding a size (`t = x.shape[1]`, `h = x.size(0)`) that the body assigns again is an `int`,
as torch's types declare it, read as the size until then: `t = t + pad` and `h += 1` are no errors."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
L = TypeVar("L")


def to_periods(x: Tensor[B, L], p: int) -> torch.Tensor:
    b, t = x.shape
    reveal_type(t)  # N: Revealed type is "tyr._static.Dim[L]"
    if t % p != 0:
        n_pad = p - t % p
        x = F.pad(x, (0, n_pad))
        t = t + n_pad
    h = x.size(0)
    reveal_type(torch.zeros(h, 3))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3]]"
    h += 1
    c = x.shape[0]
    c //= 2
    reveal_type(c)  # N: Revealed type is "tyr._static.Dim[tyr._static.DimExpr[Literal['B//2'], B]]"
    return x.view(b, t // p, p)


def concrete() -> int:
    y = torch.zeros(2, 4)
    k = y.size(1)
    k = k * 2
    return k
