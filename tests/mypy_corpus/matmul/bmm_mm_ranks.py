"""`bmm`, `mm`, `mv` take operands of exactly their ranks (no broadcasting, unlike `matmul`); `baddbmm`, `addmm` add an input."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
K = TypeVar("K")
M = TypeVar("M")


def products(a: Tensor[B, N, K], b: Tensor[B, K, M], w: Tensor[K, M], v: Tensor[K], bias: Tensor[M]) -> None:
    reveal_type(torch.baddbmm(bias, a, b))  # N: Revealed type is "torch._tensor.Tensor[B, N, M]"
    reveal_type(bias.addmm(a[0], w))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    reveal_type(a[0].mv(v))  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(torch.dot(v, v))  # N: Revealed type is "torch._tensor.Tensor[()]"
    torch.bmm(a, w)  # E: bmm: the second batch must be a batch of matrices (3-d), not (K, M)  [tyr-shape]
    a.mm(w)  # E: mm: the first matrix must be a matrix (2-d), not (B, N, K)  [tyr-shape]
    w.mv(w)  # E: mv: the vector must be a vector (1-d), not (K, M)  [tyr-shape]
    torch.baddbmm(w, a, b)  # E: baddbmm: dimension 0 of the operand (K) does not broadcast with dimension 1 of the target (N)  [tyr-shape]
