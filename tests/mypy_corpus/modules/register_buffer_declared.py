"""A buffer the class declares (`projection_matrix: Tensor[J, E]`) and `register_buffer` assigns: the
tensor given is held to the declaration, as `self.projection_matrix = ...` would be.  A name the
class does not declare, `None`, or a tensor of unknown sizes is no error."""

from typing import Any, Generic, Optional, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor

J = TypeVar("J")
E = TypeVar("E")
T = TypeVar("T")


class FastAttention(nn.Module, Generic[J, E]):
    projection_matrix: Tensor[J, E]
    positions: Tensor[Any, E]
    cache: Optional[Tensor[J, E]]

    def __init__(self, nb_features: Dim[J], dim_head: Dim[E], length: int) -> None:
        super().__init__()
        self.register_buffer("projection_matrix", torch.randn(nb_features, dim_head))
        self.register_buffer("projection_matrix", torch.randn(dim_head, nb_features))  # E: register_buffer: the buffer "projection_matrix" is declared "Tensor[J, E]", but the tensor given is "Tensor[E, J]"  [tyr-shape]
        self.register_buffer("positions", torch.randn(length, dim_head), persistent=False)
        self.register_buffer("positions", torch.randn(length, 3))  # E: register_buffer: the buffer "positions" is declared "Tensor[Any, E]", but the tensor given is "Tensor[Any, Literal[3]]"  [tyr-shape]
        self.register_buffer("cache", None)
        self.register_buffer("steps", torch.zeros(length))  # not declared: the call alone types nothing

    def forward(self, x: Tensor[T, E]) -> Tensor[T, J]:
        return x @ self.projection_matrix.T


D = TypeVar("D")
H = TypeVar("H")


class Rotary(nn.Module, Generic[D, H]):
    """Sizes are compared as sizes (SHAPES.md §6), not as the text they print as: `arange(0, d // h, 2)`
    is `(D//H + 1)//2` long, which is the `D//(2*H)` declared where `D` is a multiple of `2*H`."""

    inv_freq: Tensor["D//(2*H)"]

    def __init__(self, d: Dim[D], h: Dim[H]) -> None:
        super().__init__()
        head = d // h
        self.register_buffer("inv_freq", 1.0 / (10000 ** (torch.arange(0, head, 2).float() / head)), persistent=False)
        self.register_buffer("inv_freq", torch.arange(0, head, 1).float())  # E: register_buffer: the buffer "inv_freq" is declared "Tensor[DimExpr[Literal['D//(2*H)'], D, H]]", but the tensor given is "Tensor[DimExpr[Literal['D//H'], D, H]]"  [tyr-shape]
