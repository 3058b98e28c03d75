"""Ops that had no rule: `cartesian_prod`, `combinations`, `block_diag`, `take`, `trace`, `inner`, the
trapezoidal rule, `F.channel_shuffle`, `F.kl_div`, `F.bilinear`, `unique`, `resize_`, `broadcast_to`."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def combining(v: Tensor[D], e: Tensor["T+1", D]) -> None:
    reveal_type(torch.cartesian_prod(v, torch.arange(3.0)))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['3*D'], D], Literal[2]]"
    reveal_type(torch.combinations(torch.ones(4), r=2))  # N: Revealed type is "torch._tensor.Tensor[Literal[6], Literal[2]]"
    reveal_type(torch.combinations(v, r=2))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[2]]"
    reveal_type(torch.combinations(v, r=2, with_replacement=True))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[2]]"
    reveal_type(torch.block_diag(v[None], torch.ones(2, 3), torch.ones(())))  # E: Call to untyped function "block_diag" in typed context  [no-untyped-call]  # N: Revealed type is "torch._tensor.Tensor[Literal[4], tyr._static.DimExpr[Literal['D + 4'], D]]"
    torch.cartesian_prod(v, e)  # E: cartesian_prod: the tensor at position 1 must be 1-d, not (T + 1, D)  [tyr-shape]
    torch.block_diag(e[None])  # E: Call to untyped function "block_diag"  # E: block_diag: the tensor at position 0 must have at most 2 dims, not (1, T + 1, D)  [tyr-shape]


def products(x: Tensor[B, T, D], q: Tensor[B, 2, D], w: Tensor[D, D]) -> None:
    reveal_type(torch.take(x, torch.tensor([[0, 1]])))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[2]]"
    reveal_type(torch.trace(w))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(w.trace())  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.inner(q, x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2], B, T]"
    x.inner(torch.ones(5, 3))  # E: inner: dimension 2 of the first tensor (D) does not match dimension 1 of the second tensor (3)  [tyr-shape]
    torch.trace(x)  # E: trace: the input must be a matrix (2-d), not (B, T, D)  [tyr-shape]
    torch.inner(q, w[:, :1])  # E: inner: dimension 2 of the first tensor (D) does not match dimension 1 of the second tensor (1)  [tyr-shape]


def integrals(m: Tensor[B, T], t: Tensor[T]) -> None:
    reveal_type(torch.trapezoid(m))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.trapz(m, t))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.cumulative_trapezoid(m))  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T - 1'], T]]"
    reveal_type(torch.cumulative_trapezoid(m, dim=0))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B - 1'], B], T]"
    torch.trapezoid(m, t, dim=0)  # E: trapezoid: x has T sample points but dim 0 of the input (B, T) has B samples; there must be one per sample  [tyr-shape]


def functional(img: Tensor[B, 6, T, T], x: Tensor[B, T, D], w: Tensor[4, D, D]) -> None:
    reveal_type(F.channel_shuffle(img, 3))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[6], T, T]"
    reveal_type(F.kl_div(x, x, reduction="none"))  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
    reveal_type(F.kl_div(x, x[0], reduction="batchmean"))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(F.bilinear(x, x, w))  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[4]]"
    F.channel_shuffle(img, 4)  # E: channel_shuffle: the channel count (dim 1) 6 must be divisible by 4  [tyr-shape]
    F.kl_div(x, x.transpose(1, 2), reduction="sum")  # E: kl_div: dimension 2 of the input (D) does not broadcast with dimension 2 of the target (T); shapes (B, T, D) and (B, D, T)  [tyr-shape]
    F.bilinear(x, x[..., :1], w)  # E: bilinear: dimension 2 of input2 (1) does not match dimension 2 of the weight (D)  [tyr-shape]


def values(v: Tensor[D], m: Tensor[B, T]) -> None:
    reveal_type(v.unique())  # N: Revealed type is "torch._tensor.Tensor[Any]"
    reveal_type(m.unique(dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    values, inverse, counts = m.unique(dim=0, return_inverse=True, return_counts=True)
    reveal_type(inverse)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(m.unique_consecutive(return_inverse=True)[1])  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    m.unique(dim=2)  # E: unique: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]


def reshaped(m: Tensor[B, T]) -> None:
    r = m.clone()
    r.resize_(r.numel())
    reveal_type(r)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*T'], B, T]]"
    reveal_type(torch.broadcast_to(m, (2, *m.shape)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], B, T]"
    reveal_type(m.broadcast_to(3, -1, -1))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], B, T]"
    torch.broadcast_to(m, (2, 3))  # E: broadcast_to: dimension 0 of the tensor has size B, which is not 1, and cannot be expanded to 2; tensor (B, T)  [tyr-shape]
