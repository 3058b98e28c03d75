"""`squeeze` drops size-1 dims, `unsqueeze` inserts one, `x[None]` too."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def dims(x: Tensor[B, 1, D]) -> None:
    reveal_type(x.squeeze(1))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.unsqueeze(0))  # N: Revealed type is "torch._tensor.Tensor[Literal[1], B, Literal[1], D]"
    reveal_type(x.unsqueeze(-1))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], D, Literal[1]]"
    x.unsqueeze(4)  # E: unsqueeze: dimension 4 is out of range  [tyr-shape]
