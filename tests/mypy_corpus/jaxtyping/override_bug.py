"""An override whose shapes contradict the method it overrides."""

import torch
from jaxtyping import Float
from torch import Tensor


class Base:
    def reduce(self, x: Float[Tensor, "b c"]) -> Float[Tensor, "b"]:
        return x.sum(dim=1)


class Sub(Base):
    def reduce(self, x: Float[Tensor, "b c"]) -> Float[Tensor, "c"]:  # E: Signature of "reduce" incompatible with supertype "Base"  # N: Superclass:  # N: def [b, c] reduce(self, x: Tensor[b, c]) -> Tensor[b]  # N: Subclass:  # N: def [b, c] reduce(self, x: Tensor[b, c]) -> Tensor[c]
        return x.sum(dim=0)


Sub().reduce(torch.randn(2, 3))
