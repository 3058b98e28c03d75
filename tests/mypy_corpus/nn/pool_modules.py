"""`nn.MaxPool2d` and `nn.AvgPool2d` carry their windows."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")

pool = nn.MaxPool2d(2)
reveal_type(pool)  # N: Revealed type is "torch.nn.modules.pooling.MaxPool2d[Literal[2], None, Literal[0], Literal[1], Literal[False], Literal[False]]"
avg = nn.AvgPool2d(kernel_size=3, stride=1, padding=1)
pool_with_indices = nn.MaxPool2d(2, return_indices=True)


def run(x: Tensor[B, 8, 32, 32]) -> None:
    reveal_type(pool(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[16], Literal[16]]"
    reveal_type(avg(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[32], Literal[32]]"
    values, indices = pool_with_indices(x)
    reveal_type(indices)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], Literal[16], Literal[16]]"
