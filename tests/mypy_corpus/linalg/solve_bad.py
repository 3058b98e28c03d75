"""`torch.linalg` calls that torch rejects: a matrix that is not square, right-hand sides of the wrong size."""

from typing import TypeVar

import torch

from tyr import Tensor

N = TypeVar("N")
M = TypeVar("M")
K = TypeVar("K")


def wrong(a: Tensor[N, N], m: Tensor[M, N], rhs: Tensor[M, K], v: Tensor[N]) -> None:
    torch.linalg.solve(a, rhs)  # E: linalg.solve: for A X = B, B (M, K) must have N rows, as A (N, N) is N by N  [tyr-shape]
    torch.linalg.solve(a, v, left=False)  # E: linalg.solve: B (N,) is a batch of vectors, which needs left=True  [tyr-shape]
    torch.linalg.inv(m)  # E: linalg.inv: A must be a batch of square matrices, not M by N ((M, N))  [tyr-shape]
    torch.linalg.eigh(m)  # E: linalg.eigh: A must be a batch of square matrices  [tyr-shape]
    torch.linalg.qr(m, mode="full")  # E: linalg.qr: mode must be 'reduced', 'complete' or 'r', not 'full'  [tyr-shape]
    torch.linalg.det(v)  # E: linalg.det: A must have at least 2 dims (a batch of matrices), not (N,)  [tyr-shape]
