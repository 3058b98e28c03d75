"""A division of a product (`B*T // 6`) is exact for the product: no factor is taken to be a multiple.

At B = 3, T = 4 the size is 2; written `T*(B//6)` it would be 0.
"""

from typing import TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")


def tokens_in_groups(x: Tensor[B, T], b: Dim[B], t: Dim[T]) -> Tensor[B, T]:
    groups = x.reshape(-1, 6)
    reveal_type(groups)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['(B*T)//6'], B, T], Literal[6]]"
    reveal_type(torch.zeros(b * t // 6))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['(B*T)//6'], B, T]]"
    return groups.reshape(b, t)


def single_symbol(x: Tensor[B, 12]) -> None:
    reveal_type(x.reshape(-1, 8))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['3*(B//2)'], B], Literal[8]]"


def halves_of_the_product(x: Tensor[B, T]) -> None:
    # the other size halves the product, which is then even: the -1 is 2, whatever B and T are
    pairs = x.reshape(-1, (x.shape[0] * x.shape[1]) // 2)
    reveal_type(pairs)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], tyr._static.DimExpr[Literal['(B*T)//2'], B, T]]"
