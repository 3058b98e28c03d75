"""SHAPES.md §6, division in sizes is exact: the two rotary halves of a head dim join back to it."""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
Hd = TypeVar("Hd")


def rotate(x: Tensor[B, T, Hd], cos: Tensor[T, "Hd//2"], sin: Tensor[T, "Hd//2"]) -> Tensor[B, T, Hd]:
    d = x.shape[-1] // 2
    x1, x2 = x[..., :d], x[..., d:]
    reveal_type(x2)  # N: Revealed type is "torch._tensor.Tensor[B, T, tyr._static.DimExpr[Literal['Hd//2'], Hd]]"
    y1 = x1 * cos + x2 * sin
    y2 = x1 * (-sin) + x2 * cos
    return torch.cat([y1, y2], dim=-1)


def odd_split(x: Tensor[B, Hd]) -> None:
    half = x.shape[1]
    first = x[:, : (half + 1) // 2]
    second = x[:, half // 2 :]
    reveal_type(first)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['Hd//2'], Hd]]"
    reveal_type(torch.cat([first, second], dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Hd]"


def inv_freq(hd: Dim[Hd]) -> Tensor["Hd//2"]:
    return 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))


def bad_halves(x: Tensor[B, Hd], d: Dim[Hd]) -> Tensor[B, Hd]:
    return torch.cat([x[:, : d // 2], x[:, : d // 4]], dim=1)  # E: Incompatible return value type
