"""A tensor method called on its class, `torch.Tensor.amax(x, dim=1)`, is `x.amax(dim=1)`: one mechanism for
every method with a shape rule (the receiver is the first argument)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def unbound(x: Tensor[B, 8]) -> None:
    reveal_type(torch.Tensor.amax(x, dim=1))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(torch.Tensor.any(x, dim=0))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
    reveal_type(torch.Tensor.all(x))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.Tensor.count_nonzero(x, dim=0))  # N: Revealed type is "torch._tensor.Tensor[Literal[8]]"
    reveal_type(torch.Tensor.transpose(x, 0, 1))  # N: Revealed type is "torch._tensor.Tensor[Literal[8], B]"
    reveal_type(torch.Tensor.__mul__(x, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    reveal_type(torch.Tensor.split(x, 4, dim=1))  # N: Revealed type is "tuple[torch._tensor.Tensor[B, Literal[4]], torch._tensor.Tensor[B, Literal[4]]]"
    y = x.clone()
    torch.Tensor.unsqueeze_(y, 0)  # in place: `y` is rebound, as by `y.unsqueeze_(0)`
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], B, Literal[8]]"
    torch.Tensor.amax(x, dim=2)  # E: amax: dimension 2 is out of range for a 2-d tensor (expected -2 to 1)  [tyr-shape]
