"""A type alias of a shaped tensor and a `Dim`-valued function, used from another module."""

from typing import TypeVar

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")

Hidden = Tensor[B, T, 64]


def width(x: Hidden[B, T]) -> Dim[64]:
    return x.shape[-1]


def grow(d: Dim[D]) -> Dim["2*D + 1"]:
    return 2 * d + 1


def make(d: Dim[D]) -> Tensor[D, "2*D + 1"]:
    return torch.zeros(d, grow(d))


# `D` only inside a size string: a parameter all the same, after `B`.
Halves = tuple[Tensor[B, "D//2"], Tensor[B, "D//2"]]
