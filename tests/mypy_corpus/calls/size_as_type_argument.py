"""A size variable as a plain type argument (`table: Table[Hd]` beside `head_dim: Dim[Hd]`) is bound with the sizes."""

from typing import Generic, TypeVar, reveal_type

from torch import nn

from tyr import Dim

Hd = TypeVar("Hd")


class Table(nn.Module, Generic[Hd]):
    def __init__(self, head_dim: Dim[Hd]) -> None:
        super().__init__()


class Layer(nn.Module, Generic[Hd]):
    def __init__(self, head_dim: Dim[Hd], table: Table[Hd] | None = None) -> None:
        super().__init__()


class Model(nn.Module, Generic[Hd]):
    def __init__(self, head_dim: Dim[Hd], table: Table[Hd]) -> None:
        super().__init__()
        self.layer = Layer(head_dim, table)  # Hd of Model passed on: no error


def build() -> None:
    table = Table(8)
    reveal_type(Model(8, table))  # N: Revealed type is "tests.mypy_corpus.calls.size_as_type_argument.Model[Literal[8]]"
    Layer(8)
    Layer(8, Table(4))  # E: Dimension Hd of "Layer": bound to 8 by argument "head_dim", but argument "table" has 4
