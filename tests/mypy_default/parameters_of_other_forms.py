"""Parameters whose annotation holds a shape in another form than `Tensor[...]`, rebound under mypy's
defaults: an `Optional` tensor, a union with `None`, an alias of a shape defined in the module (given its
sizes or bare), a jaxtyping alias.  Each read gives the shape last assigned; nothing here is an error."""

from typing import Generic, Optional, TypeVar, Union, reveal_type

from jaxtyping import Float
import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")
H = TypeVar("H")
D = TypeVar("D")

Img = Tensor[B, C, H, H]
Mask = Optional[Tensor[B, T]]
Tokens = Float[torch.Tensor, "b t d"]


def extended_mask(x: Tensor[B, T, D], attention_mask: Optional[Tensor[B, T]] = None) -> Tensor[B, 1, 1, T]:
    """The HF idiom: an optional mask filled in, then given two axes."""
    if attention_mask is None:
        attention_mask = torch.ones_like(x[..., 0])
    reveal_type(attention_mask)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    attention_mask = attention_mask[:, None, None, :]
    reveal_type(attention_mask)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], Literal[1], T]"
    return attention_mask


def union_with_none(x: Tensor[B, T, D], bias: Tensor[B, T] | None, mask: Union[Tensor[B, T], None], m: Mask[B, T]) -> None:
    if bias is not None:
        bias = bias.unsqueeze(-1)
        reveal_type(bias)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[1]]"
    if mask is not None:
        mask = mask.bool()[:, None]
        reveal_type(mask)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1], T]"
    if m is not None:
        m = m.sum(-1)
        reveal_type(m)  # N: Revealed type is "torch._tensor.Tensor[B]"


class Patches(nn.Module, Generic[C, D]):
    def __init__(self, c: Dim[C], d: Dim[D]) -> None:
        super().__init__()
        self.proj = nn.Conv2d(c, d, 2, 2)

    def forward(self, x: Img[B, C, H]) -> Tensor[B, "(H//2)*(H//2)", D]:
        """An alias given its sizes: `x` takes the patches' shape."""
        x = self.proj(x).flatten(2).transpose(1, 2)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['(H//2)*(H//2)'], H], D]"
        return x


def bare_alias(x: Img) -> Tensor[B, C]:
    """An alias with no sizes: each unknown, so the pooled tensor is of unknown shape, and no error."""
    x = x.mean((2, 3))
    return x


def jaxtyping_alias(x: Tokens) -> torch.Tensor:
    x = x.sum(-1)
    return x
