"""A fill's value (`fill_`, `torch.fill`, `index_fill`, `masked_fill`) is a number or a 0-d tensor: torch
refuses a tensor of any other number of dims, even one of one element; the result keeps the input's shape."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")


def fills(x: Tensor[B, T], scale: Tensor[()], ones: Tensor[1], row: Tensor[T], ids: Tensor[3]) -> None:
    reveal_type(x.fill_(scale))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.fill_(0.5))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.fill(x, scale))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.index_fill(1, ids, scale))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.index_fill_(1, ids, 0.0))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(x.masked_fill(x > 0, scale))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    x.fill_(ones)  # E: fill_: the value must be a number or a 0-d tensor, not a tensor of shape (1,)  [tyr-shape]
    torch.fill(x, row)  # E: fill: the value must be a number or a 0-d tensor, not a tensor of shape (T,)  [tyr-shape]
    x.index_fill_(1, ids, ones)  # E: index_fill_: the value must be a number or a 0-d tensor, not a tensor of shape (1,)  [tyr-shape]
    x.index_fill(1, ids[None], 0.0)  # E: index_fill: the index must be a vector (1-d or 0-d), not (1, 3)  [tyr-shape]
    x.masked_fill_(x > 0, row)  # E: masked_fill_: the value must be a number or a 0-d tensor, not a tensor of shape (T,)  [tyr-shape]
