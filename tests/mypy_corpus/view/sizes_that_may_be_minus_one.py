"""A size such as `b - 2` is -1 at `b = 1`, where torch infers (`view`, `reshape`, `unflatten`) or
keeps (`expand`) that dim instead: the result's dim is unknown there, never `B - 2`, and the
element counts are not compared.  `b - 1` is never negative and stays a size, and so does a
size with a division, which §6 reads as the size a valid run gives (a strided conv's output), and
`2*M - 8`, which no size makes -1."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
M = TypeVar("M")


def tail_regrouped(x: Tensor[B, 3], b: Dim[B]) -> None:
    # x[2:] is empty at B = 1, and reshape(-1, 3) of it is (0, 3)
    y = x[2:].reshape(b - 2, 3)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[3]]"
    z = x[1:].reshape(b - 1, 3)
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B - 1'], B], Literal[3]]"
    u = x.unflatten(0, (b - 2, 1))
    reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[1], Literal[3]]"


def widened(y: Tensor[T, 1], t: Dim[T]) -> None:
    reveal_type(y.expand(t - 2, 5))  # N: Revealed type is "torch._tensor.Tensor[Any, Literal[5]]"
    reveal_type(y.expand(t, t - 2))  # N: Revealed type is "torch._tensor.Tensor[T, Any]"


def miscounted(x: Tensor[B, 3], b: Dim[B]) -> None:
    x.reshape(b - 1, 3)  # E: reshape: shape [B - 1, 3] has 3*B - 3 elements but the tensor (B, 3) has 3*B  [tyr-shape]


def subsampled(feats: Tensor[B, T, M]) -> None:
    conv = nn.Sequential(nn.Conv2d(1, 8, 3, stride=2), nn.Conv2d(8, 8, 3, stride=2))
    x = conv(feats.unsqueeze(1))
    b, c, t, f = x.size()
    y = x.transpose(1, 2).reshape(b, t, c * f)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T//4 - 1'], T], tyr._static.DimExpr[Literal['2*M - 8'], M]]"
