"""SHAPES.md §6: a name a loop rebinds to another shape on each pass (`v = v.unsqueeze(0)`,
`x = torch.cat([x, y], -1)`) has, in the loop and after it, the shape its passes share: the checker
cannot know how many times the loop runs, and mypy would otherwise leave a union of a few passes'
shapes, whose members that are not the value fail later checks.  A loop whose body gives the name
back its shape keeps it, and its checks.

A method called on a union of tensors (after a branch or a loop) sees the shape the members
share, as a union argument does: no error, and no result, that holds for one member only.
"""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")
H = TypeVar("H")
T = TypeVar("T")


def prepended_ones(x: Tensor[H, B]) -> Tensor[1, 1, H, B]:
    v = x
    for _ in range(2):
        v = v.unsqueeze(0)
    reveal_type(v)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    w = v.squeeze(0).squeeze(0)
    w.expand_as(torch.randn(2, x.shape[0], x.shape[1]))
    return v


def grown(x: Tensor[B, D], y: Tensor[B, D], n: int) -> Tensor[B, D]:
    for _ in range(n):
        x = torch.cat([x, y], dim=-1)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    return x[:, : y.shape[1]]


def broadcastable(t: Tensor[B], x: Tensor[B, 3, H, H]) -> Tensor[B, 3, H, H]:
    while t.dim() < x.dim():
        t = t[..., None]
    return x * t


class Mixer(nn.Module, Generic[D, T]):
    """A body that transposes and transposes back: the loop keeps the shape (the path that skips the
    loop shares what the transposed value has), and its checks."""

    def __init__(self, d: Dim[D], t: Dim[T]) -> None:
        super().__init__()
        self.tokens = nn.Linear(t, t)
        self.channels = nn.Linear(d, d)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        for _ in range(4):
            x = x.transpose(1, 2)
            x = self.tokens(x)
            x = x.transpose(1, 2)
            x = self.channels(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Any, Any] | torch._tensor.Tensor[B, T, D]"
        return x

    def forgets_to_transpose(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        for _ in range(4):
            x = self.tokens(x)  # E: linear  [tyr-shape]
        return x


def flattened_in_a_branch(x: Tensor[B, T, D], flat: bool) -> None:
    if flat:
        x = x.reshape(-1)
    reveal_type(x.sum(-1))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def either_width(x: Tensor[B, 3] | Tensor[B, 4]) -> None:
    """A declared union: a call is an error only where it fails for every member."""
    reveal_type(x.sum(-1))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(x.flatten())  # N: Revealed type is "torch._tensor.Tensor[Any]"
    x.sum(2)  # E: sum: dimension 2 is out of range for a 2-d tensor
    reveal_type(x[:, 3])  # N: Revealed type is "torch._tensor.Tensor[B]"
