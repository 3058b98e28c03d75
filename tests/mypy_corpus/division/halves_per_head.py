"""SHAPES.md §6: a per-head width `D//H` halved for rotary pairs (`D//H//2`, so `D` is a multiple of
`2*H`) and put back together is `D//H` again: `2*(D//(2*H))` and `D//H` agree at every size where
the divisions are exact (RetNet's and per-head RoPE's rotations)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
H = TypeVar("H")


def rotate(x: Tensor[B, "D//H//2"]) -> Tensor[B, "D//H"]:
    both = torch.cat([x, -x], dim=-1)
    reveal_type(both)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D//H'], D, H]]"
    return both


def rotate_pairs(x: Tensor[B, "D//H"], theta: Tensor["D//H//2"]) -> Tensor[B, "D//H"]:
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    return torch.view_as_real(pairs * torch.polar(torch.ones_like(theta), theta)).flatten(-2)


def quarter_heads(x: Tensor[B, "D//(4*H)"]) -> None:
    reveal_type(torch.cat([x, x], dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['D//(2*H)'], D, H]]"
    reveal_type(torch.cat([x, x, x], dim=-1))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['3*(D//(4*H))'], D, H]]"
    torch.cat([x, x], dim=-1) + torch.zeros(x.shape[0], x.shape[1] * 4)  # E: +
