"""Activations and dropout keep the shape."""

from typing import TypeVar, reveal_type

from torch import nn

from tyr import Tensor

B = TypeVar("B")


def run(x: Tensor[B, 32]) -> None:
    reveal_type(nn.ReLU()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.GELU(approximate="tanh")(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.SiLU()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.Tanh()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.Dropout(0.1)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.Softmax(dim=-1)(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
    reveal_type(nn.Identity()(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[32]]"
