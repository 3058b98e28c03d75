"""A product divided by a size whose factor the signature names: `T//W` says `W` divides `T`, so the
`(B*T)//W` windows of one reshape are the `B*(T//W)` the return type is written with (red team 8's
Swin windows).  Without such a signature the division of the product stays whole (`product.py`)."""

from typing import TypeVar, reveal_type

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
W = TypeVar("W")
C = TypeVar("C")


def windows(x: Tensor[B, T, C], w: Dim[W]) -> Tensor["B*(T//W)", W, C]:
    y = x.reshape(-1, w, x.shape[-1])
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*(T//W)'], B, T, W], W, C]"
    return y


def windows_by_view(x: Tensor[B, T, C], w: Dim[W]) -> Tensor["B*(T//W)", W, C]:
    b, t, c = x.shape
    return x.view(b, t // w, w, c).flatten(0, 1)


def merged(x: Tensor["B*(T//W)", W, C], b: Dim[B]) -> Tensor[B, T, C]:
    return x.reshape(b, -1, x.shape[-1])


def unstated(x: Tensor[B, T, C], w: Dim[W]) -> None:
    reveal_type(x.reshape(-1, w, x.shape[-1]))  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['(B*T)//W'], B, T, W], W, C]"


Bw = TypeVar("Bw")
Hi = TypeVar("Hi")
Wi = TypeVar("Wi")


def window_reverse(
    windows: Tensor[Bw, W, W, C], ws: Dim[W], h: Dim[Hi], w: Dim[Wi]
) -> Tensor["Bw//((Hi//W)*(Wi//W))", Hi, Wi, C]:
    # a divisor that is no product of sizes ((Hi//W)*(Wi//W)) is no fact a size can be written with
    b = windows.shape[0] // ((h // ws) * (w // ws))
    x = windows.view(b, h // ws, w // ws, ws, ws, -1)
    return x.permute(0, 1, 3, 2, 4, 5).contiguous().view(b, h, w, -1)
