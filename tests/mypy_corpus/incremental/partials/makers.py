"""Partials whose calls another module makes, reading their types from mypy's cache."""

from functools import partial
from typing import TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


def emb(t: Tensor[B], dim: Dim[D]) -> Tensor[B, D]:
    return torch.zeros(t.shape[0], dim)


emb8 = partial(emb, dim=8)
conv3 = partial(nn.Conv2d, padding=1)
