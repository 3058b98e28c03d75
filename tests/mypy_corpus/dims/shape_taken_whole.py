"""The whole of `x.shape` passed on as a sequence: `list(x.shape)`, `enumerate(x.shape)`, `zip`,
`[*x.shape]`, `max` / `sum` / `math.prod` over it.  mypy joins the sizes of a shape to iterate
it; `Dim[B]` and `Dim[T]` join to a `Dim` of unknown size (an `int`), never to `object`
(Meta's llama `reshape_for_broadcast`)."""

import math
from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
H = TypeVar("H")
K = TypeVar("K")


def reshape_for_broadcast(freqs_cis: Tensor[T, K], x: Tensor[B, T, H, K]) -> torch.Tensor:
    shape = [d if i == 1 or i == x.ndim - 1 else 1 for i, d in enumerate(x.shape)]
    return freqs_cis.view(*shape)


def whole_shape(x: Tensor[B, T, H, K], y: Tensor[B, 4]) -> None:
    sizes = list(x.shape)
    sizes[-1] = -1
    x.view(sizes)
    reveal_type(list(y.shape))  # N: Revealed type is "list[int]"
    reveal_type(x.reshape(x.shape[0], math.prod(x.shape[1:])))  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    reveal_type(torch.zeros(max(x.shape) + 1))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    print(sum(x.shape) // 2)
    for a, b in zip(x.shape, y.shape):
        print(a * b)
    reveal_type(torch.zeros(*tuple(x.shape)))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    first, *rest = x.shape
    reveal_type(torch.zeros(first, 2))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2]]"


def batch_indices(idx: Tensor[B, T]) -> torch.Tensor:
    """PointNet++'s `index_points`: a slice of the listed sizes replaced by ints."""
    view_shape = list(idx.shape)
    view_shape[1:] = [1] * (len(view_shape) - 1)
    reveal_type(view_shape)  # N: Revealed type is "list[Any]"
    return torch.arange(idx.shape[0]).view(view_shape)
