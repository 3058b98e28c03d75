"""`nn.Unflatten(dim, sizes)` splits a dim as `x.unflatten(dim, sizes)` does: one size may be -1."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
H = TypeVar("H")
D = TypeVar("D")


def run(x: Tensor[B, 12, 8], y: Tensor[B, "H*D"], e: Tensor[B, D], h: Dim[H], d: Dim[D], n: int, sizes: tuple[int, ...]) -> None:
    reveal_type(nn.Unflatten(1, (3, 4)))  # N: Revealed type is "torch.nn.modules.flatten.Unflatten[Literal[1], tuple[Literal[3], Literal[4]]]"
    reveal_type(nn.Unflatten(1, (3, 4))(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4], Literal[8]]"
    reveal_type(nn.Unflatten(1, [3, -1])(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[3], Literal[4], Literal[8]]"
    reveal_type(nn.Unflatten(dim=-1, unflattened_size=(2, 2, 2))(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[12], Literal[2], Literal[2], Literal[2]]"
    reveal_type(nn.Unflatten(1, (1, 12, 1))(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], Literal[12], Literal[1], Literal[8]]"
    reveal_type(nn.Unflatten(1, (3, -1))(torch.zeros(2, 0)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3], Literal[0]]"
    reveal_type(nn.Unflatten(1, (h, d))(y))  # N: Revealed type is "torch._tensor.Tensor[B, H, D]"
    reveal_type(nn.Unflatten(1, (h, -1))(y))  # N: Revealed type is "torch._tensor.Tensor[B, H, D]"
    reveal_type(nn.Unflatten(1, (n, 4))(x))  # N: Revealed type is "torch._tensor.Tensor[B, Any, Literal[4], Literal[8]]"
    reveal_type(nn.Unflatten(1, sizes)(x))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(nn.Unflatten(n, (3, 4))(x))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(nn.Sequential(nn.Flatten(), nn.Unflatten(1, (8, 12)))(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[12]]"
    nn.Unflatten(1, (n, 5))(x)  # a size of unknown value: nothing to check
    nn.Unflatten(1, (5, -1))(x)  # E: unflatten: shape [5, -1] does not divide the 12 elements of dimension 1 (12) (in Unflatten[1, (5, -1)])  [tyr-shape]
    nn.Unflatten(1, (3, 5))(x)  # E: unflatten: shape [3, 5] has 15 elements but dimension 1 (12) has 12 (in Unflatten[1, (3, 5)])  [tyr-shape]
    nn.Unflatten(1, (h, d))(e)  # E: unflatten: shape [H, D] has D*H elements but dimension 1 (D) has D (in Unflatten[1, (H, D)])  [tyr-shape]
    nn.Unflatten(1, (-1, -1))(x)  # E: unflatten: only one dimension can be inferred (-1), got [-1, -1]  [tyr-shape]
    nn.Unflatten(1, (0, -1))(torch.zeros(2, 0))  # E: unflatten: cannot infer the -1 in [0, -1]  [tyr-shape]
    nn.Unflatten(1, ())(x)  # E: unflatten: sizes must be non-empty (in Unflatten[1, ()])  [tyr-shape]
    nn.Unflatten(3, (3, 4))(x)  # E: unflatten: dimension 3 is out of range for a 3-d tensor (expected -3 to 2) (in Unflatten[3, (3, 4)])  [tyr-shape]


class Heads(nn.Module, Generic[H, D]):
    def __init__(self, h: Dim[H], d: Dim[D]) -> None:
        super().__init__()
        self.split = nn.Unflatten(-1, (h, d))

    def forward(self, x: Tensor[B, "H*D"]) -> Tensor[B, H, D]:
        return self.split(x)

    def wrong(self, x: Tensor[B, "H*D"]) -> Tensor[B, D, H]:
        return self.split(x)  # E: Incompatible return value type
