"""One size, two spellings (SHAPES.md §6): a value and the type declared for it agree wherever the
facts of both say they are the same size, however each is written (red team 9's fuzzer)."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
H = TypeVar("H")
Dh = TypeVar("Dh")
E = TypeVar("E")


def product_halved(x: Tensor[B, T, "H*Dh"], h: Dim[H]) -> Tensor[B, T, "H*(Dh//2)"]:
    # the signature says Dh is even: (H*Dh)//2 is H*(Dh//2)
    b, t, d = x.shape
    y = x[..., : d // 2]
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, T, tyr._static.DimExpr[Literal['H*(Dh//2)'], Dh, H]]"
    z: Tensor[B, T, "(H*Dh)//2"] = x[..., : d // 2]
    return y


def factor_inside_division(x: Tensor[B, D], h: Dim[H]) -> None:
    y: Tensor[B, H, "(4*(D//4))//H"] = x.view(x.shape[0], h, -1)
    z: Tensor[B, H, "(2*(D//2))//H"] = x.view(x.shape[0], h, x.shape[1] // h)


def stated_by_the_annotation(x: Tensor[B, "2*D"], h: Dim[H]) -> None:
    # the annotation says H divides D: (2*D)//H is 2*(D//H)
    y: Tensor[B, H, "2*(D//H)"] = x.view(x.shape[0], h, x.shape[1] // h)
    w: Tensor[B, H, "D//H"] = x.view(x.shape[0], h, x.shape[1] // h)  # E: Incompatible types in assignment


def merged_then_halved(x: Tensor[B, T], h: Dim[H]) -> None:
    # (T//H)*H is T where H divides T: the size is T//2, whatever H is
    y: Tensor[B, "T//H*H//2"] = x[:, : x.shape[1] // 2]
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T//2'], T]]"


def halved_twice(x: Tensor[B, D, T]) -> Tensor[B, D, "(T//2 - 1)//2 + 1"]:
    # a stride-2 convolution of T//2: torch's (T//2 - 1)//2 + 1 for every even T (2 at T = 6, where T//4 is 1)
    y = F.conv1d(F.avg_pool1d(x, 2), torch.randn(x.shape[1], x.shape[1], 3), stride=2, padding=1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, D, tyr._static.DimExpr[Literal['(T//2 + 1)//2'], T]]"
    return y


def quartered(x: Tensor[B, D, T]) -> Tensor[B, D, "T//4"]:
    # where T//4 is written, T is a multiple of 4, and (T//2 + 1)//2 is T//4
    return F.conv1d(F.avg_pool1d(x, 2), torch.randn(x.shape[1], x.shape[1], 3), stride=2, padding=1)


def quartered_local(x: Tensor[B, D, T]) -> None:
    y: Tensor[B, D, "T//4"] = x[..., : x.shape[-1] // 2][..., ::2]
    z: Tensor[B, D, "T//3"] = x[..., : x.shape[-1] // 2][..., ::2]  # E: Incompatible types in assignment


def value_heads(v: Tensor[B, "2*E"], k: Tensor[B, "E//H"], e: Dim[E], h: Dim[H]) -> Tensor[B, H, "(2*E)//H"]:
    """RetNet's value heads, twice as wide as the key heads' `E//H`: under the signature's facts `(2*e)//h` is
    `2*(E//H)`, the return type's `(2*E)//H`, written as the signature writes it, also through a name."""
    head_dim = (2 * e) // h
    y = v.view(v.shape[0], h, head_dim)
    return y
