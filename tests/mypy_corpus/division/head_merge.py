"""SHAPES.md §6: `H * (D // H)` is `D`, so splitting into heads and merging back checks clean."""

from typing import Generic, TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")
H = TypeVar("H")


class Heads(nn.Module, Generic[D, H]):
    def __init__(self, d: Dim[D], h: Dim[H]) -> None:
        super().__init__()
        self.d, self.h = d, h
        self.proj = nn.Linear(d, d)

    def split(self, x: Tensor[B, T, D]) -> Tensor[B, H, T, "D//H"]:
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.d // self.h).transpose(1, 2)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        q = self.split(x)
        b, h, t, hd = q.shape
        merged = q.transpose(1, 2).reshape(b, t, h * hd)
        reveal_type(merged)  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
        flat = q.transpose(1, 2).reshape(b, t, -1)
        reveal_type(flat)  # N: Revealed type is "torch._tensor.Tensor[B, T, D]"
        return self.proj(merged)


def wrong_merge(q: Tensor[B, H, T, "D//H"]) -> Tensor[B, T, D]:
    b, h, t, hd = q.shape
    return q.transpose(1, 2).reshape(b, t, 2 * hd)  # E: reshape: shape [B, T, 2*(D//H)] has 2*B*T*(D//H) elements but the tensor (B, T, H, D//H) has B*D*T  [tyr-shape]
