"""`torch.linalg.vecdot` broadcasts, then sums over `dim` (two vectors: `vdot`); `adjoint()` swaps the last two dims."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
N = TypeVar("N")


def vecdot(x: Tensor[B, N, D], y: Tensor[D], v: Tensor[D], w: Tensor[1, D]) -> None:
    reveal_type(torch.linalg.vecdot(x, y))  # N: Revealed type is "torch._tensor.Tensor[B, N]"
    reveal_type(torch.linalg.vecdot(x, w, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.linalg.vecdot(v, y))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(x.adjoint())  # N: Revealed type is "torch._tensor.Tensor[B, D, N]"
    reveal_type(torch.adjoint(w))  # N: Revealed type is "torch._tensor.Tensor[D, Literal[1]]"


def bad(x: Tensor[B, N, D], y: Tensor[N], v: Tensor[D]) -> None:
    torch.linalg.vecdot(x, y)  # E: linalg.vecdot: dimension 2 of x (D) does not broadcast with dimension 0 of y (N); shapes (B, N, D) and (N,)  [tyr-shape]
    torch.linalg.vecdot(v, y)  # E: linalg.vecdot: dimension 0 of the first vector (D) does not match dimension 0 of the second vector (N)  [tyr-shape]
    torch.linalg.vecdot(x, v, dim=3)  # E: linalg.vecdot: dimension 3 is out of range for a 3-d tensor (expected -3 to 2)  [tyr-shape]
    v.adjoint()  # E: adjoint: needs a matrix or a batch of matrices, not (D,)  [tyr-shape]
