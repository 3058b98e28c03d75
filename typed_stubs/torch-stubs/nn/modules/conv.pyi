# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/conv.py (torch 2.13): convolutions are generic in their sizes.
#
# `Conv2d[In, Out, Kernel, Stride, Padding, Dilation, Groups]` carries the channel
# counts and the geometry (each an int literal type, a tuple of them, or
# `Literal["same"]`), bound by the tyr mypy plugin from the constructor's arguments;
# `conv(x)` goes to the `conv_nd` shape rule.  Transposed convolutions carry
# `OutputPadding` too.  Without the plugin every argument defaults to `Any`.

from typing import Any, Generic, Literal

from typing_extensions import TypeVar, deprecated

from torch import Tensor
from torch.nn.common_types import _size_1_t, _size_2_t, _size_3_t
from torch.nn.parameter import UninitializedParameter

from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "Conv1d",
    "Conv2d",
    "Conv3d",
    "ConvTranspose1d",
    "ConvTranspose2d",
    "ConvTranspose3d",
    "LazyConv1d",
    "LazyConv2d",
    "LazyConv3d",
    "LazyConvTranspose1d",
    "LazyConvTranspose2d",
    "LazyConvTranspose3d",
]

convolution_notes: dict[str, str]
reproducibility_notes: dict[str, str]

_In = TypeVar("_In", covariant=True, default=Any)
_Out = TypeVar("_Out", covariant=True, default=Any)
_Kernel = TypeVar("_Kernel", covariant=True, default=Any)
_Stride = TypeVar("_Stride", covariant=True, default=Any)
_Padding = TypeVar("_Padding", covariant=True, default=Any)
_Dilation = TypeVar("_Dilation", covariant=True, default=Any)
_Groups = TypeVar("_Groups", covariant=True, default=Any)
_OutputPadding = TypeVar("_OutputPadding", covariant=True, default=Any)

_PaddingMode = Literal["zeros", "reflect", "replicate", "circular"]

class _ConvNd(Module, Generic[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups]):
    __constants__: list[str]
    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor: ...
    in_channels: int
    _reversed_padding_repeated_twice: list[int]
    out_channels: int
    kernel_size: tuple[int, ...]
    stride: tuple[int, ...]
    padding: str | tuple[int, ...]
    dilation: tuple[int, ...]
    transposed: bool
    output_padding: tuple[int, ...]
    groups: int
    padding_mode: _PaddingMode
    weight: Tensor
    bias: Tensor | None
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: tuple[int, ...],
        stride: tuple[int, ...],
        padding: str | tuple[int, ...],
        dilation: tuple[int, ...],
        transposed: bool,
        output_padding: tuple[int, ...],
        groups: int,
        bias: bool,
        padding_mode: _PaddingMode,
        device=None,
        dtype=None,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def extra_repr(self): ...
    def __setstate__(self, state): ...

class Conv1d(_ConvNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: str | _size_1_t = 0,
        dilation: _size_1_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None): ...
    def forward(self, input: Tensor) -> Tensor: ...

class Conv2d(_ConvNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: str | _size_2_t = 0,
        dilation: _size_2_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None): ...
    def forward(self, input: Tensor) -> Tensor: ...

class Conv3d(_ConvNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: str | _size_3_t = 0,
        dilation: _size_3_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None): ...
    def forward(self, input: Tensor) -> Tensor: ...

class _ConvTransposeNd(
    _ConvNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups],
    Generic[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups, _OutputPadding],
):
    def __init__(
        self,
        in_channels,
        out_channels,
        kernel_size,
        stride,
        padding,
        dilation,
        transposed,
        output_padding,
        groups,
        bias,
        padding_mode,
        device=None,
        dtype=None,
    ) -> None: ...
    def _output_padding(
        self,
        input: Tensor,
        output_size: list[int] | None,
        stride: list[int],
        padding: list[int],
        kernel_size: list[int],
        num_spatial_dims: int,
        dilation: list[int] | None = None,
    ) -> list[int]: ...

class ConvTranspose1d(_ConvTransposeNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups, _OutputPadding]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        output_padding: _size_1_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_1_t = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class ConvTranspose2d(_ConvTransposeNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups, _OutputPadding]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        output_padding: _size_2_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_2_t = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class ConvTranspose3d(_ConvTransposeNd[_In, _Out, _Kernel, _Stride, _Padding, _Dilation, _Groups, _OutputPadding]):
    def __init__(
        self,
        in_channels: int,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        output_padding: _size_3_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_3_t = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def forward(self, input: Tensor, output_size: list[int] | None = None) -> Tensor: ...

class _ConvTransposeMixin(_ConvTransposeNd[Any, Any, Any, Any, Any, Any, Any, Any]):
    @deprecated(
        "`_ConvTransposeMixin` is a deprecated internal class. Please consider using public APIs.",
        category=FutureWarning,
    )
    def __init__(self, *args, **kwargs) -> None: ...

class _LazyConvXdMixin(LazyModuleMixin):
    groups: int
    transposed: bool
    in_channels: int
    out_channels: int
    kernel_size: tuple[int, ...]
    weight: UninitializedParameter
    bias: UninitializedParameter
    def reset_parameters(self) -> None: ...
    def initialize_parameters(self, input: Tensor, *args, **kwargs) -> None: ...
    def _get_in_channels(self, input: Tensor) -> int: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConv1d(_LazyConvXdMixin, Conv1d[Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = Conv1d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        dilation: _size_1_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConv2d(_LazyConvXdMixin, Conv2d[Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = Conv2d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        dilation: _size_2_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConv3d(_LazyConvXdMixin, Conv3d[Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = Conv3d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        dilation: _size_3_t = 1,
        groups: int = 1,
        bias: bool = True,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConvTranspose1d(_LazyConvXdMixin, ConvTranspose1d[Any, Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = ConvTranspose1d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_1_t,
        stride: _size_1_t = 1,
        padding: _size_1_t = 0,
        output_padding: _size_1_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_1_t = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConvTranspose2d(_LazyConvXdMixin, ConvTranspose2d[Any, Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = ConvTranspose2d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_2_t,
        stride: _size_2_t = 1,
        padding: _size_2_t = 0,
        output_padding: _size_2_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: int = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...

class LazyConvTranspose3d(_LazyConvXdMixin, ConvTranspose3d[Any, Any, Any, Any, Any, Any, Any, Any]):  # type: ignore[misc]
    cls_to_become = ConvTranspose3d
    def __init__(
        self,
        out_channels: int,
        kernel_size: _size_3_t,
        stride: _size_3_t = 1,
        padding: _size_3_t = 0,
        output_padding: _size_3_t = 0,
        groups: int = 1,
        bias: bool = True,
        dilation: _size_3_t = 1,
        padding_mode: _PaddingMode = "zeros",
        device=None,
        dtype=None,
    ) -> None: ...
    def _get_num_spatial_dims(self) -> int: ...
