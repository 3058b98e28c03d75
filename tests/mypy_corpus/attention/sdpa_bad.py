"""Queries and keys must share their feature size; keys and values their length."""

from typing import TypeVar

import torch.nn.functional as F

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")


def attend(q: Tensor[B, T, 64], k: Tensor[B, S, 32], v: Tensor[B, T, 64]) -> None:
    F.scaled_dot_product_attention(q, k, v)  # E: scaled_dot_product_attention: the query has 64 features (last dim) but the key has 32  [tyr-shape]


def lengths(q: Tensor[B, T, 64], k: Tensor[B, S, 64], v: Tensor[B, T, 64]) -> None:
    F.scaled_dot_product_attention(q, k, v)  # E: scaled_dot_product_attention: the key has length S (dim -2) but the value has T  [tyr-shape]
