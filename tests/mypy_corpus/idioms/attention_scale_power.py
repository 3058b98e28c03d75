"""`self.scale = head_dim ** -0.5` (timm, vit-pytorch): typeshed types a float power of an `int` or a
`float` as `Any` (a negative base gives a complex), and `attn * Any` is `Any`, which would leave
everything after the scaling unchecked.  In a module annotated with shapes the power is a `float`
(for a `Dim` or a positive literal base everywhere; `tests/mypy_corpus/untouched/float_power.py`)."""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
N = TypeVar("N")
D = TypeVar("D")


class Attention(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], head_dim: int = 8) -> None:
        super().__init__()
        self.scale = head_dim ** -0.5
        self.proj = nn.Linear(dim, dim)

    def forward(self, q: Tensor[B, N, D], k: Tensor[B, N, D], v: Tensor[B, N, D]) -> Tensor[B, N, D]:
        attn = (q @ k.transpose(-2, -1)) * self.scale
        reveal_type(attn)  # N: Revealed type is "torch._tensor.Tensor[B, N, N]"
        attn.softmax(-1) @ v.transpose(1, 2)  # E: @: dimension 2 of the left operand (N) does not match dimension 1 of the right operand (D)  [tyr-shape]
        return self.proj(attn.softmax(-1) @ v)


def powers(head_dim: int, temperature: float, d: Dim[D]) -> None:
    reveal_type(head_dim ** -0.5)  # N: Revealed type is "float"
    reveal_type(temperature ** 0.5)  # N: Revealed type is "float"
    reveal_type(d ** -0.5)  # N: Revealed type is "float"
    reveal_type(2 ** head_dim)  # N: Revealed type is "Any"


class LearnableScale(nn.Module):
    """A name or attribute assigned again keeps typeshed's `Any` for the power: a `float` would make the
    later value (a learnable scale) an error that plain mypy never gave."""

    def __init__(self, head_dim: int, learnable: bool) -> None:
        super().__init__()
        self.scale = head_dim ** -0.5
        if learnable:
            self.scale = nn.Parameter(torch.tensor(self.scale))

    def forward(self, x: Tensor[B, N]) -> Tensor[B, N]:
        reveal_type(self.scale)  # N: Revealed type is "Any"
        scale = x.shape[-1] ** -0.5
        scale = torch.tensor(scale)
        return x * scale
