"""Matrix-vector and vector-vector products drop the vector's dim."""

from typing import TypeVar, reveal_type

from tyr import Tensor

N = TypeVar("N")
M = TypeVar("M")


def products(a: Tensor[N, M], v: Tensor[M], u: Tensor[N]) -> None:
    reveal_type(a @ v)  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(u @ a)  # N: Revealed type is "torch._tensor.Tensor[M]"
    reveal_type(v @ v)  # N: Revealed type is "torch._tensor.Tensor[()]"
