"""`a, b = b, a`: Python reads the whole right-hand tuple before it binds a name, and so does the
checker (mypy alone assigns item by item, and would read the new `a`) (red team 9's models)."""

from typing import Generic, TypeVar, reveal_type

from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")
M = TypeVar("M")


def swap(a: Tensor[B, D], b: Tensor[B, E]) -> tuple[Tensor[B, E], Tensor[B, D]]:
    a, b = b, a
    reveal_type(a)  # N: Revealed type is "torch._tensor.Tensor[B, E]"
    reveal_type(b)  # N: Revealed type is "torch._tensor.Tensor[B, D]"
    return a, b


class KeyValue(nn.Module, Generic[D, E]):
    """The Set Transformer's `K, V = self.fc_k(K), self.fc_v(K)`: both projections read the keys given."""

    def __init__(self, d: Dim[D], e: Dim[E]) -> None:
        super().__init__()
        self.fc_k = nn.Linear(d, e)
        self.fc_v = nn.Linear(d, e)

    def forward(self, K: Tensor[B, M, D]) -> Tensor[B, M, E]:
        K, V = self.fc_k(K), self.fc_v(K)
        return K + V


def swapped_wrongly(a: Tensor[B, D], b: Tensor[B, E]) -> tuple[Tensor[B, D], Tensor[B, E]]:
    a, b = b, a
    return a, b  # E: Incompatible return value type
