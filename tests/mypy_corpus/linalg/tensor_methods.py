"""The older names of `torch.linalg` ops, as tensor methods and `torch.*` functions: `det`, `logdet`, `slogdet`,
`inverse`, `pinverse`, `matrix_exp`, `matrix_power`."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
M = TypeVar("M")


def square(a: Tensor[B, N, N], r: Tensor[N, M], v: Tensor[N]) -> None:
    reveal_type(a.det())  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.logdet(a))  # N: Revealed type is "torch._tensor.Tensor[B]"
    sign, logabsdet = a.slogdet()
    reveal_type(logabsdet)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.slogdet(a).sign)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.inverse(a))  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(a.matrix_exp())  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(torch.matrix_power(a, 3))  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    reveal_type(r.pinverse())  # N: Revealed type is "torch._tensor.Tensor[M, N]"
    reveal_type(torch.pinverse(a, rcond=1e-10))  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
    r.inverse()  # E: inverse: A must be a batch of square matrices, not N by M ((N, M))  [tyr-shape]
    torch.det(r)  # E: det: A must be a batch of square matrices, not N by M ((N, M))  [tyr-shape]
    v.logdet()  # E: logdet: A must have at least 2 dims (a batch of matrices), not (N,)  [tyr-shape]
    torch.matrix_power(r, 2)  # E: matrix_power: A must be a batch of square matrices
    v.pinverse()  # E: pinverse: A must have at least 2 dims
