"""`x[idx] = value`: the value, its leading dims of size 1 dropped, broadcasts into `x[idx]` without
growing it; a number always fits, and a mask's count is unknown.  A symbol is no 1 (SHAPES.md §6):
`x[0] = w` with `w` of `(B, D)` fails wherever `B` is not 1."""

from typing import Any, TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")

z = torch.randn(4, 6, 8)
z[0] = torch.ones(6, 8)
z[0] = torch.ones(1, 1, 8)
z[:, 0] = 3.0
z[0] = torch.tensor(2.0)
z[[0, 1]] = torch.ones(2, 6, 8)
z[z > 0] = torch.ones(5)
z[0] = torch.ones(7, 3)  # E: setitem: dimension 1 of the operand (3) does not broadcast with dimension 1 of the target (8); shapes (7, 3) and (6, 8)  [tyr-shape]
z[:, 0] = torch.ones(5, 8)  # E: setitem: dimension 0 of the operand (5) does not broadcast with dimension 0 of the target (4); shapes (5, 8) and (4, 8)  [tyr-shape]
z[[0, 1]] = torch.ones(3, 6, 8)  # E: setitem: dimension 0 of the operand (3) does not broadcast with dimension 0 of the target (2)  [tyr-shape]
z[0, 0] = torch.ones(2, 8)  # E: setitem: shape (2, 8) has more dimensions than the target (8,)  [tyr-shape]
z[z > 0] = torch.ones(5, 2)  # E: setitem: shape (5, 2) has more dimensions than the target (?,)  [tyr-shape]


def rows(x: Tensor[B, D], v: Tensor[D], w: Tensor[B, D], u: Tensor[Any, D], k: int) -> None:
    x[0] = v
    x[0] = w  # E: setitem: shape (B, D) has more dimensions than the target (D,)  [tyr-shape]
    x[0] = u
    x[k] = v
    x[:k] = w
    x[0] += v
    x[..., 0] = torch.zeros(3)  # E: setitem: dimension 0 of the operand (3) does not broadcast with dimension 0 of the target (B)  [tyr-shape]
    x[0] = torch.zeros(2, 1, 3)  # E: setitem: dimension 2 of the operand (3) does not broadcast with dimension 0 of the target (D)  [tyr-shape]
