"""Basic and slice indexing: `x[:, -1]`, `x[..., :k]`, `x[None]`, `x[0]`."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")


def index(x: Tensor[B, T, C], k: int) -> None:
    reveal_type(x[:, -1])  # N: Revealed type is "torch._tensor.Tensor[B, C]"
    reveal_type(x[..., :k])  # N: Revealed type is "torch._tensor.Tensor[B, T, Any]"
    reveal_type(x[None])  # N: Revealed type is "torch._tensor.Tensor[Literal[1], B, T, C]"
    reveal_type(x[0])  # N: Revealed type is "torch._tensor.Tensor[T, C]"
    reveal_type(x[:, :, None, :])  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1], C]"
    reveal_type(x[..., 0])  # N: Revealed type is "torch._tensor.Tensor[B, T]"
