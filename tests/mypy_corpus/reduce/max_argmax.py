"""`max(dim)` gives values and indices; `max()` a 0-d tensor; `argmax` indices."""

from typing import TypeVar, reveal_type

from tyr import Tensor

B = TypeVar("B")
V = TypeVar("V")


def pick(logits: Tensor[B, V], other: Tensor[B, V]) -> None:
    values, indices = logits.max(dim=-1)
    reveal_type(values)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(indices)  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(logits.max())  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(logits.argmax(-1))  # N: Revealed type is "torch._tensor.Tensor[B]"
    reveal_type(logits.argmax(dim=1, keepdim=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[1]]"
    reveal_type(logits.max(other))  # N: Revealed type is "torch._tensor.Tensor[B, V]"
