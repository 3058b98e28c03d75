"""An einsum operand typed `Any` (`q * scale` with a `scale` of type `Any`: mypy types the product `Any`) is a
tensor of unknown shape: the equation still gives the result's rank, and the labels the other
operands fix keep their sizes (a size that may be 1, `B`, may broadcast against the unknown one)."""

from typing import Any, TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")
M = TypeVar("M")
D = TypeVar("D")


def attention(q: Tensor[B, N, D], k: Tensor[B, M, D], scale: Any, mask: Tensor[B, N]) -> None:
    sim = torch.einsum("bid,bjd->bij", q * scale, k)
    reveal_type(sim)  # N: Revealed type is "torch._tensor.Tensor[Any, Any, M]"
    sim.masked_fill(mask, 0.0)  # E: masked_fill: dimension 2 of input (M) does not broadcast with dimension 1 of the mask (N); shapes (?, ?, M) and (B, N)  [tyr-shape]
    reveal_type(torch.einsum("...d,jd->...j", q * scale, k[0]))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
