# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/linear.py (torch 2.13): `Linear[In, Out]` and `Bilinear[In1, In2, Out]`
# are generic in their sizes.
#
# The tyr mypy plugin binds the type arguments from the constructor's arguments
# (`nn.Linear(784, 256)` is `Linear[784, 256]`, `nn.Linear(d, 4 * d)` is
# `Linear[D, 4*D]`) and routes `linear(x)` to the `F.linear` shape rule (`bilinear(x1, x2)`
# to `F.bilinear`'s).  Without the plugin the arguments default to `Any`.  Everything else
# is as torch types it.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor
from torch.nn.parameter import Parameter, UninitializedParameter

from .lazy import LazyModuleMixin
from .module import Module

__all__ = ["Bilinear", "Identity", "LazyLinear", "Linear"]

_In = TypeVar("_In", covariant=True, default=Any)
_In2 = TypeVar("_In2", covariant=True, default=Any)
_Out = TypeVar("_Out", covariant=True, default=Any)

class Identity(Module):
    def __init__(self, *args: Any, **kwargs: Any) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class Linear(Module, Generic[_In, _Out]):
    __constants__: list[str]
    in_features: int
    out_features: int
    weight: Tensor[_Out, _In]
    bias: Parameter[_Out]
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class NonDynamicallyQuantizableLinear(Linear[_In, _Out]):
    def __init__(self, in_features: int, out_features: int, bias: bool = True, device=None, dtype=None) -> None: ...

class Bilinear(Module, Generic[_In, _In2, _Out]):
    __constants__: list[str]
    in1_features: int
    in2_features: int
    out_features: int
    weight: Tensor[_Out, _In, _In2]
    bias: Parameter[_Out]
    def __init__(
        self, in1_features: int, in2_features: int, out_features: int, bias: bool = True, device=None, dtype=None
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input1: Tensor, input2: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class LazyLinear(LazyModuleMixin, Linear[Any, _Out]):
    cls_to_become = Linear
    weight: UninitializedParameter
    bias: UninitializedParameter  # type: ignore[assignment]
    def __init__(self, out_features: int, bias: bool = True, device=None, dtype=None) -> None: ...
    def reset_parameters(self) -> None: ...
    def initialize_parameters(self, input) -> None: ...
