"""Multi-head attention with einops: heads split by `rearrange`, scores by `einsum`, heads merged back."""

from typing import Final, Generic, TypeVar, reveal_type

from einops import einsum, rearrange
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")
H = TypeVar("H")


class Attention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.heads: Final = 8
        self.to_q = nn.Linear(512, 512, bias=False)
        self.to_k = nn.Linear(512, 512, bias=False)
        self.to_v = nn.Linear(512, 512, bias=False)
        self.to_out = nn.Linear(512, 512)

    def forward(self, x: Tensor[B, N, 512]) -> Tensor[B, N, 512]:
        q = rearrange(self.to_q(x), "b n (h d) -> b h n d", h=8)
        reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], N, Literal[64]]"
        k = rearrange(self.to_k(x), "b n (h d) -> b h n d", h=self.heads)
        v = rearrange(self.to_v(x), "b n (h d) -> b h n d", h=self.heads)
        dots = einsum(q, k, "b h i d, b h j d -> b h i j") * 0.125
        reveal_type(dots)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8], N, N]"
        out = einsum(dots.softmax(dim=-1), v, "b h i j, b h j d -> b h i d")
        out = rearrange(out, "b h n d -> b n (h d)")
        reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, N, Literal[512]]"
        return self.to_out(out)


def split_heads(x: Tensor[B, N, D], heads: Dim[H]) -> Tensor[B, H, N, "D//H"]:
    return rearrange(x, "b n (h d) -> b h n d", h=heads)


def plain_int_heads(x: Tensor[B, N, D], heads: int) -> None:
    reveal_type(rearrange(x, "b n (h d) -> b h n d", h=heads))  # N: Revealed type is "torch._tensor.Tensor[B, Any, N, Any]"


class GenericAttention(nn.Module, Generic[D, H]):
    """Heads split and merged symbolically: `(h d)` with `h=H` on `D` gives `d = D//H`, and `H*(D//H)` is `D`."""

    def __init__(self, dim: Dim[D], heads: Dim[H]) -> None:
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        q = rearrange(self.to_q(x), "b n (h d) -> b h n d", h=self.heads)
        reveal_type(q)  # N: Revealed type is "torch._tensor.Tensor[B, H, N, tyr._static.DimExpr[Literal['D//H'], D, H]]"
        attn = einsum(q, q, "b h i d, b h j d -> b h i j").softmax(dim=-1)
        out = rearrange(einsum(attn, q, "b h i j, b h j d -> b h i d"), "b h n d -> b n (h d)")
        reveal_type(out)  # N: Revealed type is "torch._tensor.Tensor[B, N, D]"
        return self.to_out(out)
