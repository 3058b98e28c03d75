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
