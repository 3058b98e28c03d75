# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/upsampling.py (torch 2.13): `Upsample` carries its size, scale and mode.
#
# `Upsample[Size, Scale, Mode]` (sizes or tuples of them, `None` when not given; an
# int scale factor as a literal type, a float one unknown; the mode as a literal
# string) is bound by the tyr mypy plugin from the constructor's arguments;
# `upsample(x)` goes to the `interpolate` shape rule.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor
from torch.nn.common_types import _ratio_2_t, _ratio_any_t, _size_2_t, _size_any_t

from .module import Module

__all__ = ["Upsample", "UpsamplingNearest2d", "UpsamplingBilinear2d"]

_Size = TypeVar("_Size", covariant=True, default=Any)
_Scale = TypeVar("_Scale", covariant=True, default=Any)
_Mode = TypeVar("_Mode", covariant=True, default=Any)

class Upsample(Module, Generic[_Size, _Scale, _Mode]):
    __constants__: list[str]
    name: str
    size: _size_any_t | None
    scale_factor: _ratio_any_t | None
    mode: str
    align_corners: bool | None
    recompute_scale_factor: bool | None
    def __init__(
        self,
        size: _size_any_t | None = None,
        scale_factor: _ratio_any_t | None = None,
        mode: str = "nearest",
        align_corners: bool | None = None,
        recompute_scale_factor: bool | None = None,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __setstate__(self, state): ...
    def extra_repr(self) -> str: ...

class UpsamplingNearest2d(Upsample[_Size, _Scale, _Mode]):
    def __init__(self, size: _size_2_t | None = None, scale_factor: _ratio_2_t | None = None) -> None: ...

class UpsamplingBilinear2d(Upsample[_Size, _Scale, _Mode]):
    def __init__(self, size: _size_2_t | None = None, scale_factor: _ratio_2_t | None = None) -> None: ...
