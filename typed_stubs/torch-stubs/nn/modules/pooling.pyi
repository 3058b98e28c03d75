# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/pooling.py (torch 2.13): max and average pooling carry their geometry.
#
# `MaxPool2d[Kernel, Stride, Padding, Dilation, CeilMode, ReturnIndices]` and
# `AvgPool2d[Kernel, Stride, Padding, CeilMode]` (int literal types or tuples of
# them, bool literal types; `Stride` is `None` when it defaults to the kernel) are
# bound by the tyr mypy plugin from the constructor's arguments; `pool(x)` goes to
# the `pool_nd` shape rule.  `AdaptiveAvgPool2d[OutputSize]` and
# `AdaptiveMaxPool2d[OutputSize, ReturnIndices]` (sizes, or tuples of them) go to
# `adaptive_pool_nd`.  `LPPool2d[Kernel, Stride, CeilMode]` pools as an average pool without padding.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor
from torch.nn.common_types import (
    _ratio_2_t,
    _ratio_3_t,
    _size_1_t,
    _size_2_opt_t,
    _size_2_t,
    _size_3_opt_t,
    _size_3_t,
    _size_any_opt_t,
    _size_any_t,
)

from .module import Module

__all__ = [
    "MaxPool1d",
    "MaxPool2d",
    "MaxPool3d",
    "MaxUnpool1d",
    "MaxUnpool2d",
    "MaxUnpool3d",
    "AvgPool1d",
    "AvgPool2d",
    "AvgPool3d",
    "FractionalMaxPool2d",
    "FractionalMaxPool3d",
    "LPPool1d",
    "LPPool2d",
    "LPPool3d",
    "AdaptiveMaxPool1d",
    "AdaptiveMaxPool2d",
    "AdaptiveMaxPool3d",
    "AdaptiveAvgPool1d",
    "AdaptiveAvgPool2d",
    "AdaptiveAvgPool3d",
]

_Kernel = TypeVar("_Kernel", covariant=True, default=Any)
_Stride = TypeVar("_Stride", covariant=True, default=Any)
_Padding = TypeVar("_Padding", covariant=True, default=Any)
_Dilation = TypeVar("_Dilation", covariant=True, default=Any)
_CeilMode = TypeVar("_CeilMode", covariant=True, default=Any)
_ReturnIndices = TypeVar("_ReturnIndices", covariant=True, default=Any)
_OutputSize = TypeVar("_OutputSize", covariant=True, default=Any)

class _MaxPoolNd(Module, Generic[_Kernel, _Stride, _Padding, _Dilation, _CeilMode, _ReturnIndices]):
    __constants__: list[str]
    kernel_size: _size_any_t
    stride: _size_any_t
    padding: _size_any_t
    dilation: _size_any_t
    return_indices: bool
    ceil_mode: bool
    def __init__(
        self,
        kernel_size: _size_any_t,
        stride: _size_any_t | None = None,
        padding: _size_any_t = 0,
        dilation: _size_any_t = 1,
        return_indices: bool = False,
        ceil_mode: bool = False,
    ) -> None: ...
    def extra_repr(self) -> str: ...

class MaxPool1d(_MaxPoolNd[_Kernel, _Stride, _Padding, _Dilation, _CeilMode, _ReturnIndices]):
    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t
    dilation: _size_1_t
    def forward(self, input: Tensor): ...

class MaxPool2d(_MaxPoolNd[_Kernel, _Stride, _Padding, _Dilation, _CeilMode, _ReturnIndices]):
    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t
    dilation: _size_2_t
    def forward(self, input: Tensor): ...

class MaxPool3d(_MaxPoolNd[_Kernel, _Stride, _Padding, _Dilation, _CeilMode, _ReturnIndices]):
    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t
    dilation: _size_3_t
    def forward(self, input: Tensor): ...

class _MaxUnpoolNd(Module):
    def extra_repr(self) -> str: ...

class MaxUnpool1d(_MaxUnpoolNd):
    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t
    def __init__(self, kernel_size: _size_1_t, stride: _size_1_t | None = None, padding: _size_1_t = 0) -> None: ...
    def forward(self, input: Tensor, indices: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class MaxUnpool2d(_MaxUnpoolNd):
    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t
    def __init__(self, kernel_size: _size_2_t, stride: _size_2_t | None = None, padding: _size_2_t = 0) -> None: ...
    def forward(self, input: Tensor, indices: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class MaxUnpool3d(_MaxUnpoolNd):
    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t
    def __init__(self, kernel_size: _size_3_t, stride: _size_3_t | None = None, padding: _size_3_t = 0) -> None: ...
    def forward(self, input: Tensor, indices: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class _AvgPoolNd(Module, Generic[_Kernel, _Stride, _Padding, _CeilMode]):
    __constants__: list[str]
    def extra_repr(self) -> str: ...

class AvgPool1d(_AvgPoolNd[_Kernel, _Stride, _Padding, _CeilMode]):
    kernel_size: _size_1_t
    stride: _size_1_t
    padding: _size_1_t
    ceil_mode: bool
    count_include_pad: bool
    def __init__(
        self,
        kernel_size: _size_1_t,
        stride: _size_1_t = None,  # type: ignore[assignment]
        padding: _size_1_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class AvgPool2d(_AvgPoolNd[_Kernel, _Stride, _Padding, _CeilMode]):
    kernel_size: _size_2_t
    stride: _size_2_t
    padding: _size_2_t
    ceil_mode: bool
    count_include_pad: bool
    divisor_override: int | None
    def __init__(
        self,
        kernel_size: _size_2_t,
        stride: _size_2_t | None = None,
        padding: _size_2_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class AvgPool3d(_AvgPoolNd[_Kernel, _Stride, _Padding, _CeilMode]):
    kernel_size: _size_3_t
    stride: _size_3_t
    padding: _size_3_t
    ceil_mode: bool
    count_include_pad: bool
    divisor_override: int | None
    def __init__(
        self,
        kernel_size: _size_3_t,
        stride: _size_3_t | None = None,
        padding: _size_3_t = 0,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: int | None = None,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def __setstate__(self, d): ...

class FractionalMaxPool2d(Module):
    __constants__: list[str]
    kernel_size: _size_2_t
    return_indices: bool
    output_size: _size_2_t
    output_ratio: _ratio_2_t
    def __init__(
        self,
        kernel_size: _size_2_t,
        output_size: _size_2_t | None = None,
        output_ratio: _ratio_2_t | None = None,
        return_indices: bool = False,
        _random_samples=None,
    ) -> None: ...
    def forward(self, input: Tensor): ...

class FractionalMaxPool3d(Module):
    __constants__: list[str]
    kernel_size: _size_3_t
    return_indices: bool
    output_size: _size_3_t
    output_ratio: _ratio_3_t
    def __init__(
        self,
        kernel_size: _size_3_t,
        output_size: _size_3_t | None = None,
        output_ratio: _ratio_3_t | None = None,
        return_indices: bool = False,
        _random_samples=None,
    ) -> None: ...
    def forward(self, input: Tensor): ...

class _LPPoolNd(Module, Generic[_Kernel, _Stride, _CeilMode]):
    __constants__: list[str]
    norm_type: float
    kernel_size: _size_any_t
    stride: _size_any_t | None
    ceil_mode: bool
    def __init__(
        self, norm_type: float, kernel_size: _size_any_t, stride: _size_any_t | None = None, ceil_mode: bool = False
    ) -> None: ...
    def extra_repr(self) -> str: ...

class LPPool1d(_LPPoolNd[_Kernel, _Stride, _CeilMode]):
    kernel_size: _size_1_t
    stride: _size_1_t
    def forward(self, input: Tensor) -> Tensor: ...

class LPPool2d(_LPPoolNd[_Kernel, _Stride, _CeilMode]):
    kernel_size: _size_2_t
    stride: _size_2_t
    def forward(self, input: Tensor) -> Tensor: ...

class LPPool3d(_LPPoolNd[_Kernel, _Stride, _CeilMode]):
    kernel_size: _size_3_t
    stride: _size_3_t
    def forward(self, input: Tensor) -> Tensor: ...

class _AdaptiveMaxPoolNd(Module, Generic[_OutputSize, _ReturnIndices]):
    __constants__: list[str]
    output_size: _size_any_opt_t
    return_indices: bool
    def __init__(self, output_size: _size_any_opt_t, return_indices: bool = False) -> None: ...
    def extra_repr(self) -> str: ...

class AdaptiveMaxPool1d(_AdaptiveMaxPoolNd[_OutputSize, _ReturnIndices]):
    output_size: _size_1_t
    def forward(self, input: Tensor): ...

class AdaptiveMaxPool2d(_AdaptiveMaxPoolNd[_OutputSize, _ReturnIndices]):
    output_size: _size_2_opt_t
    def forward(self, input: Tensor): ...

class AdaptiveMaxPool3d(_AdaptiveMaxPoolNd[_OutputSize, _ReturnIndices]):
    output_size: _size_3_opt_t
    def forward(self, input: Tensor): ...

class _AdaptiveAvgPoolNd(Module, Generic[_OutputSize]):
    __constants__: list[str]
    output_size: _size_any_opt_t
    def __init__(self, output_size: _size_any_opt_t) -> None: ...
    def extra_repr(self) -> str: ...

class AdaptiveAvgPool1d(_AdaptiveAvgPoolNd[_OutputSize]):
    output_size: _size_1_t
    def forward(self, input: Tensor) -> Tensor: ...

class AdaptiveAvgPool2d(_AdaptiveAvgPoolNd[_OutputSize]):
    output_size: _size_2_opt_t
    def forward(self, input: Tensor) -> Tensor: ...

class AdaptiveAvgPool3d(_AdaptiveAvgPoolNd[_OutputSize]):
    output_size: _size_3_opt_t
    def forward(self, input: Tensor) -> Tensor: ...
