"""`@`, `matmul`, `mm` and `bmm`, with batch dims broadcast."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
H = TypeVar("H")
T = TypeVar("T")
S = TypeVar("S")
D = TypeVar("D")


def products(q: Tensor[B, H, T, D], k: Tensor[B, H, S, D], v: Tensor[B, H, S, D], w: Tensor[D, D]) -> None:
    att = q @ k.transpose(-2, -1)
    reveal_type(att)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, S]"
    reveal_type(att @ v)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(q @ w)  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(torch.matmul(q, w))  # N: Revealed type is "torch._tensor.Tensor[B, H, T, D]"
    reveal_type(w.mm(w))  # N: Revealed type is "torch._tensor.Tensor[D, D]"


def batched(a: Tensor[B, T, D], b: Tensor[B, D, S]) -> None:
    reveal_type(torch.bmm(a, b))  # N: Revealed type is "torch._tensor.Tensor[B, T, S]"
