"""`F.affine_grid` builds a sampling grid of the requested size; `F.grid_sample` samples the input at it."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")


def warp(img: Tensor[B, C, H, W], theta: Tensor[B, 2, 3], h: Dim[H], w: Dim[W]) -> None:
    grid = F.affine_grid(theta, [img.shape[0], img.shape[1], h, w], align_corners=False)
    reveal_type(grid)  # N: Revealed type is "torch._tensor.Tensor[B, H, W, Literal[2]]"
    reveal_type(F.grid_sample(img, grid, align_corners=False))  # N: Revealed type is "torch._tensor.Tensor[B, C, H, W]"
    F.grid_sample(img, torch.zeros(3, 4, 4, 2))  # E: grid_sample: the batch sizes differ  [tyr-shape]
    F.affine_grid(torch.zeros(2, 3, 4), [2, 3, 8, 8])  # E: affine_grid: theta must be (2, 2, 3)  [tyr-shape]
