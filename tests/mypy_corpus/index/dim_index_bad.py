"""An index that is a `Dim` is checked against the dim's size where that is evident: `x[:, n]` of a dim of size `n`."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

K = TypeVar("K")
N = TypeVar("N")


def pick(x: Tensor[K, N], n: Dim[N], k: Dim[K]) -> None:
    reveal_type(x[:, n - 1])  # N: Revealed type is "torch._tensor.Tensor[K]"
    reveal_type(x[:, k])  # N: Revealed type is "torch._tensor.Tensor[K]"
    x[:, n]  # E: index: index N is out of bounds for dimension 1 with size N  [tyr-shape]
