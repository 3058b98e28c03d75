# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/normalization.py (torch 2.13): the norms are generic in their sizes.
#
# `LayerNorm[*Normalized]` and `RMSNorm[*Normalized]` carry `normalized_shape`;
# `GroupNorm[Groups, Channels, Affine]` its group and channel counts, and whether it has a
# weight (without one, torch checks no channel count against the input).  The tyr mypy
# plugin binds them from the constructor's arguments and checks inputs against them.
# `normalized_shape` takes an int or any sequence of ints.  It is typed `Any`: torch's own
# `_shape_t` is no alias mypy can read (it sees `Any`), so code that passes an `int | None` or a
# module's attribute type-checks without tyr and must with it; the plugin reads the value itself.

from typing import Any, Generic

from typing_extensions import TypeVar, TypeVarTuple, Unpack

from torch import Tensor
from torch.nn.parameter import Parameter

from .module import Module

__all__ = ["LocalResponseNorm", "CrossMapLRN2d", "LayerNorm", "GroupNorm", "RMSNorm"]

_Normalized = TypeVarTuple("_Normalized", default=Unpack[tuple[Any, ...]])
_Groups = TypeVar("_Groups", covariant=True, default=Any)
_Channels = TypeVar("_Channels", covariant=True, default=Any)
_Affine = TypeVar("_Affine", covariant=True, default=Any)

class LocalResponseNorm(Module):
    __constants__: list[str]
    size: int
    alpha: float
    beta: float
    k: float
    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1.0) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self): ...

class CrossMapLRN2d(Module):
    size: int
    alpha: float
    beta: float
    k: float
    def __init__(self, size: int, alpha: float = 0.0001, beta: float = 0.75, k: float = 1) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

_shape_t = Any

class LayerNorm(Module, Generic[Unpack[_Normalized]]):
    __constants__: list[str]
    normalized_shape: tuple[int, ...]
    eps: float
    elementwise_affine: bool
    weight: Parameter
    bias: Parameter
    def __init__(
        self,
        normalized_shape: _shape_t,
        eps: float = 1e-05,
        elementwise_affine: bool = True,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class GroupNorm(Module, Generic[_Groups, _Channels, _Affine]):
    __constants__: list[str]
    num_groups: int
    num_channels: int
    eps: float
    affine: bool
    weight: Parameter
    bias: Parameter
    def __init__(
        self,
        num_groups: int,
        num_channels: int,
        eps: float = 1e-05,
        affine: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class RMSNorm(Module, Generic[Unpack[_Normalized]]):
    __constants__: list[str]
    normalized_shape: tuple[int, ...]
    eps: float | None
    elementwise_affine: bool
    weight: Parameter
    def __init__(
        self,
        normalized_shape: _shape_t,
        eps: float | None = None,
        elementwise_affine: bool = True,
        device=None,
        dtype=None,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, x: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
