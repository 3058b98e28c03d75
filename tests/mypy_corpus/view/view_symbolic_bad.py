"""Distinct symbols: `Tensor[B, D]` has `B*D` elements, not `B*E`."""

from typing import TypeVar

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")


def bad(x: Tensor[B, D], e: Tensor[E]) -> None:
    x.view(x.shape[0], e.shape[0])  # E: view: shape [B, E] has B*E elements but the tensor (B, D) has B*D  [tyr-shape]
