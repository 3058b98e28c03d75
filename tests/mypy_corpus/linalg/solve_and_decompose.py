"""`torch.linalg`: systems of equations, inverses, determinants and decompositions of batches of matrices."""

from typing import TypeVar, reveal_type

import torch
from torch import linalg as LA

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
M = TypeVar("M")
K = TypeVar("K")


def systems(a: Tensor[B, N, N], b: Tensor[B, N], rhs: Tensor[N, K]) -> None:
    reveal_type(torch.linalg.solve(a, b))  # N: Revealed type is "torch._tensor.Tensor[B, N]"
    reveal_type(torch.linalg.solve(a[0], rhs))  # N: Revealed type is "torch._tensor.Tensor[N, K]"
    reveal_type(torch.linalg.solve(a[0], rhs.mT, left=False))  # N: Revealed type is "torch._tensor.Tensor[K, N]"
    reveal_type(torch.linalg.solve(a, rhs))  # N: Revealed type is "Any"  # a batch of vectors if K is B: unknown
    reveal_type(LA.inv(a))  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(torch.linalg.det(a))  # N: Revealed type is "torch._tensor.Tensor[B]"
    sign, logabsdet = torch.linalg.slogdet(a)
    reveal_type(logabsdet)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.linalg.cholesky(a))  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"


def spectra(a: Tensor[B, N, N], m: Tensor[M, N]) -> None:
    eigenvalues, eigenvectors = torch.linalg.eigh(a)
    reveal_type(eigenvalues)  # N: Revealed type is "torch._tensor.Tensor[B, N]"
    reveal_type(torch.linalg.eigh(a).eigenvectors)  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(torch.linalg.eigvalsh(a, UPLO="U"))  # N: Revealed type is "torch._tensor.Tensor[B, N]"
    u, s, vh = torch.linalg.svd(m[None], full_matrices=False)
    reveal_type(vh)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Any, N]"
    reveal_type(torch.linalg.svd(a).S)  # N: Revealed type is "torch._tensor.Tensor[B, N]"
    reveal_type(torch.linalg.qr(a).Q)  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(torch.linalg.pinv(m))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    reveal_type(torch.linalg.matmul(m, a))  # N: Revealed type is "torch._tensor.Tensor[B, M, N]"
