"""Boolean masks: `x[mask]` keeps the elements where the mask is true, so the leading size is unknown."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def select(x: Tensor[B, T, D], labels: Tensor[B, T], flags: Tensor[B, T]) -> None:
    keep = labels != -100
    reveal_type(x[keep])  # N: Revealed type is "torch._tensor.Tensor[Any, D]"
    reveal_type(x[(labels > 0) & keep])  # N: Revealed type is "torch._tensor.Tensor[Any, D]"
    reveal_type(x[:, 0][labels[:, 0] > 0])  # N: Revealed type is "torch._tensor.Tensor[Any, D]"
    reveal_type(x[flags])  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    x[labels.T > 0]  # E: index: the mask's shape (T, B) does not match dims 0 to 1 of the indexed tensor (B, T, D)  [tyr-shape]
