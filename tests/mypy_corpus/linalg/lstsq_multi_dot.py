"""Least squares and chained products: the solution's shape, a chain's ends; rows that do not fit."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

M = TypeVar("M")
N = TypeVar("N")


def fit(a: Tensor[M, N], b: Tensor[M, 3], v: Tensor[M]) -> None:
    reveal_type(torch.linalg.lstsq(a, b).solution)  # N: Revealed type is "torch._tensor.Tensor[N, Literal[3]]"
    solution, residuals, rank, singular_values = torch.linalg.lstsq(a, v)
    reveal_type(solution)  # N: Revealed type is "torch._tensor.Tensor[N]"
    torch.linalg.lstsq(torch.randn(3, 4), torch.randn(4, 2))  # E: linalg.lstsq: B (4, 2) must have A's 3 rows, as A (3, 4) is 3 by 4  [tyr-shape]


def chain(x: Tensor[3, 4], y: Tensor[4, 5], z: Tensor[5]) -> None:
    reveal_type(torch.linalg.multi_dot([x, y, torch.randn(5, 6)]))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[6]]"
    reveal_type(torch.linalg.multi_dot([x, y, z]))  # N: Revealed type is "torch._tensor.Tensor[Literal[3]]"
    torch.linalg.multi_dot([x, x])  # E: linalg.multi_dot: tensors 0 and 1 of shapes (3, 4) and (3, 4) cannot be multiplied  [tyr-shape]
