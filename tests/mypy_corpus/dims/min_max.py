"""`min`/`max` of `Dim`s: the size that is provably the least (greatest), else a plain `int`; never an error."""

from typing import Generic, TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

T = TypeVar("T")
L = TypeVar("L")


class Cache(Generic[L]):
    def __init__(self, block_size: Dim[L]) -> None:
        self.block_size = block_size

    def window(self, x: Tensor[T, 8], t: Dim[T], n: int) -> None:
        k = min(t, self.block_size)
        reveal_type(k)  # N: Revealed type is "int"
        reveal_type(torch.zeros(k, 3))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[3]]"
        reveal_type(max(t, self.block_size))  # N: Revealed type is "int"
        reveal_type(min(t, x.shape[0]))  # N: Revealed type is "tyr._static.Dim[T]"
        reveal_type(max(t, 1))  # N: Revealed type is "tyr._static.Dim[T]"
        reveal_type(min(t + 1, t))  # N: Revealed type is "tyr._static.Dim[T]"
        reveal_type(min(t, n))  # N: Revealed type is "int"
        reveal_type(x[:min(t, self.block_size)])  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[8]]"
