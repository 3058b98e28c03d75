"""`tensor_split`: a number of sections (the first ones one longer) or the indices to split at; a tensor of
indices gives pieces of unknown number."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def pieces(x: Tensor[B, 7], at: Tensor[2]) -> None:
    reveal_type(x.tensor_split(3, dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[3]], torch._tensor.Tensor[B, Literal[2]], torch._tensor.Tensor[B, Literal[2]]]"
    reveal_type(torch.tensor_split(x, [2, -1], dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[2]], torch._tensor.Tensor[B, Literal[4]], torch._tensor.Tensor[B, Literal[1]]]"
    reveal_type(x.tensor_split(at, dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[*tuple[Any, ...]], ...]"
    x.tensor_split(0, dim=1)  # E: tensor_split: the number of sections must be positive, not 0  [tyr-shape]
    x[0, 0].tensor_split(2)  # E: tensor_split: expects a tensor with at least 1 dimension, not a 0-d one  [tyr-shape]
