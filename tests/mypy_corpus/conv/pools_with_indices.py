"""Max pools that also give the indices of their maxima (`return_indices=True`, the `_with_indices`
functions) are checked as the plain pool is, and give two tensors of its shape; 3-d adaptive pools
and `None` in an adaptive max pool's `output_size` (torch keeps that dim, though its own annotation
refuses the None) are as in 1-d and 2-d."""

from typing import TypeVar, reveal_type

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
C = TypeVar("C")


def pooled(x: Tensor[B, C, 9, 10], v: Tensor[B, C, 9, 9, 9], s: Tensor[B, 3, 10]) -> None:
    out, at = F.max_pool2d(x, 2, return_indices=True)
    reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[4], Literal[5]]"
    reveal_type(at)  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[4], Literal[5]]"
    reveal_type(F.max_pool1d_with_indices(s, [2])[0])  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[5]]"
    reveal_type(F.adaptive_max_pool2d(x, (None, 3)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[9], Literal[3]]"
    reveal_type(F.adaptive_max_pool3d(v, 2, return_indices=True)[1])  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[2], Literal[2], Literal[2]]"
    reveal_type(F.adaptive_avg_pool3d(v, (2, None, 4)))  # N: Revealed type is "torch._tensor.Tensor[B, C, Literal[2], Literal[9], Literal[4]]"
    F.max_pool1d(s, 3, padding=2, return_indices=True)  # E: max_pool1d: padding [2] must be between 0 and half of kernel_size [3]  [tyr-shape]
    F.adaptive_max_pool3d(v, (5, 1, 3, 2))  # E: adaptive_max_pool3d: output_size must have 3 sizes, got 4  [tyr-shape]
