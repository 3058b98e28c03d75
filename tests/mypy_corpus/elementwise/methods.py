"""Elementwise methods and functions keep the shape; binary ones broadcast."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")


def act(x: Tensor[B, D], y: Tensor[D]) -> None:
    reveal_type(x.exp().log().sqrt())  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.tanh(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.clamp(min=0))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.float().to(torch.float16))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(torch.maximum(x, y))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.add(y, alpha=2))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.relu(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.gelu(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(F.silu(x))  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    reveal_type(x.detach().clone().contiguous())  # N: Revealed type is "torch._tensor.Tensor[B, D]"
