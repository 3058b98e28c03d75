# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/flatten.py (torch 2.13): `Flatten[StartDim, EndDim]` carries its dims,
# `Unflatten[Dim, Sizes]` its dim and its sizes (a tuple type: `tuple[Literal[3], Literal[-1]]`).
#
# The tyr mypy plugin binds them from `nn.Flatten(start_dim, end_dim)` (as literal
# ints) and `nn.Unflatten(dim, unflattened_size)`, and routes `flatten(x)` to the
# `flatten` shape rule, `unflatten(x)` to `unflatten`.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor
from torch.types import _size

from .module import Module

__all__ = ["Flatten", "Unflatten"]

_Start = TypeVar("_Start", covariant=True, default=Any)
_End = TypeVar("_End", covariant=True, default=Any)
_Dim = TypeVar("_Dim", covariant=True, default=Any)
_Sizes = TypeVar("_Sizes", covariant=True, default=Any)

class Flatten(Module, Generic[_Start, _End]):
    __constants__: list[str]
    start_dim: int
    end_dim: int
    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Unflatten(Module, Generic[_Dim, _Sizes]):
    __constants__: list[str]
    dim: int
    unflattened_size: _size
    def __init__(self, dim: int, unflattened_size: _size) -> None: ...
    def _require_tuple_int(self, input) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
