"""Methods of a generic class: the class's sizes are fixed by the instance, the method's bind per call."""

from typing import Generic, TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


class Scaler(Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        self.scale = torch.ones(d)

    def apply(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return x * self.scale


s = Scaler(8)
reveal_type(s)  # N: Revealed type is "tests.mypy_corpus.calls.generic_method.Scaler[Literal[8]]"
reveal_type(s.apply(torch.randn(5, 8)))  # N: Revealed type is "torch._tensor.Tensor[Literal[5], Literal[8]]"
s.apply(torch.randn(5, 7))  # E: Dimension 1 of argument "x" to "Scaler.apply": expected 8, got 7  [tyr-shape]
