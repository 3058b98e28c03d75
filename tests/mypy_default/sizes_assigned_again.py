"""A local holding a size (`t = x.shape[1]`, `h = x.size(0)`) that the body assigns again is an `int`,
as torch's types declare it, read as the size until then: `t = t + pad` and `h += 1` are no errors."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Dim, Tensor

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


def widths_doubled_in_a_loop(x: Tensor[B, L], width: Dim[L]) -> None:
    """`n = width` (no hook: declared `Dim[L]`), then `n = n * 2` in a loop: no error, and after the
    loop `n` is an `int` (it may be `L` or `8*L`), never `L` again."""
    n = width
    for _ in range(3):
        n = n * 2
    reveal_type(n)  # N: Revealed type is "int"
    reveal_type(torch.zeros(n))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    m = width
    m *= 2
    k = width
    if x.shape[0] > 2:
        k = 2 * width
    reveal_type(torch.zeros(k))  # N: Revealed type is "torch._tensor.Tensor[Any]"


def channels_scaled_by_plain_ints(base: Dim[L], mults: tuple[int, ...]) -> int:
    """`ch = base` (no hook: declared `Dim[L]`), then `ch = base * m` with `m` a plain `int`: a size
    not known, as a U-Net's channel loop has it.  No error, and `ch` is an `int` from there on."""
    ch = base
    for m in mults:
        ch = base * m
    reveal_type(ch)  # N: Revealed type is "int"
    return ch


def stages(d: Dim[L], d_out: int, depth: int) -> list[int]:
    """`dim, cur = d, 0`, then `dim = d_out` (a plain `int`, a bare name: no hook runs for either) in a loop,
    as Hiera's stages have it: `dim` is declared an `int`, read as `L` until it is assigned again."""
    dim, cur = d, 0
    reveal_type(torch.zeros(dim))  # N: Revealed type is "torch._tensor.Tensor[L]"
    widths = []
    for i in range(depth):
        if i == 1:
            dim = d_out
        widths.append(dim)
        cur += 1
    reveal_type(dim)  # N: Revealed type is "int"
    return widths


def at_least_one(y: Tensor[B, L]) -> int:
    z = torch.zeros(2, 3)
    k = max(z.shape[0], 1)  # a size, read as 2 until the body assigns `k` again
    reveal_type(k)  # N: Revealed type is "Literal[2]"
    k = 3
    return k
