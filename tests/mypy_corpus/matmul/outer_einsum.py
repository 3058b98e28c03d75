"""`torch.outer` and `torch.einsum` with a literal equation."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")
D = TypeVar("D")


def products(u: Tensor[T], v: Tensor[S], q: Tensor[B, T, D], k: Tensor[B, S, D]) -> None:
    reveal_type(torch.outer(u, v))  # N: Revealed type is "torch._tensor.Tensor[T, S]"
    reveal_type(torch.einsum("btd,bsd->bts", q, k))  # N: Revealed type is "torch._tensor.Tensor[B, T, S]"
    reveal_type(torch.einsum("btd->bd", q))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    torch.einsum("btd,bsd->bts", q, u)  # E: einsum  [tyr-shape]
