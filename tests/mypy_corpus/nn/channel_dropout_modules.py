"""`nn.Dropout1d` / `Dropout2d` / `Dropout3d` keep the shape; their `p` and training mode are not in their type,
so what is checked is what torch refuses whatever they are: `Dropout1d` takes `(C, L)` or `(N, C, L)` only
(the others warn about other ranks, and fail only for some `p` in training)."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

N = TypeVar("N")
C = TypeVar("C")


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.drop1 = nn.Dropout1d(0.1)
        self.drop2 = nn.Dropout2d()
        self.drop3 = nn.Dropout3d(p=0.2)

    def forward(self, seq: Tensor[N, C, 16], img: Tensor[N, C, 8, 8], vol: Tensor[N, C, 4, 4, 4]) -> None:
        reveal_type(self.drop1(seq))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[16]]"
        reveal_type(self.drop1(seq[0]))  # N: Revealed type is "torch._tensor.Tensor[C, Literal[16]]"
        reveal_type(self.drop2(img))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[8], Literal[8]]"
        reveal_type(self.drop2(seq))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[16]]"
        reveal_type(self.drop3(vol))  # N: Revealed type is "torch._tensor.Tensor[N, C, Literal[4], Literal[4], Literal[4]]"
        reveal_type(self.drop3(vol[0]))  # N: Revealed type is "torch._tensor.Tensor[C, Literal[4], Literal[4], Literal[4]]"
        self.drop1(img)  # E: dropout1d: the input must be (C, L) or (N, C, L), not (N, C, 8, 8)  [tyr-shape]
        self.drop1(seq[0, 0])  # E: dropout1d: the input must be (C, L) or (N, C, L), not (16,)  [tyr-shape]
