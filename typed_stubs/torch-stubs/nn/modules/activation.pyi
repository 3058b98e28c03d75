# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/activation.py (torch 2.13).
#
# The activations keep their input's shape (the tyr mypy plugin knows them by
# name); `GLU[Dim]` carries the dim it halves.  `MultiheadAttention[Embed, Heads,
# BatchFirst, KDim, VDim, AddBiasKV, AddZeroAttn]` carries the constructor arguments
# that shape its inputs and outputs, bound by the plugin, so `attn(q, k, v)` can be
# checked; unlike torch's own, its constructor is typed.

from typing import Any, Generic

from typing_extensions import TypeVar

import torch
from torch import Tensor
from torch.nn.parameter import Parameter

from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = [
    "Threshold",
    "ReLU",
    "RReLU",
    "Hardtanh",
    "ReLU6",
    "Sigmoid",
    "Hardsigmoid",
    "Tanh",
    "SiLU",
    "Mish",
    "Hardswish",
    "ELU",
    "CELU",
    "SELU",
    "GLU",
    "GELU",
    "Hardshrink",
    "LeakyReLU",
    "LogSigmoid",
    "Softplus",
    "Softshrink",
    "MultiheadAttention",
    "PReLU",
    "Softsign",
    "Tanhshrink",
    "Softmin",
    "Softmax",
    "Softmax2d",
    "LogSoftmax",
]

_Embed = TypeVar("_Embed", covariant=True, default=Any)
_Heads = TypeVar("_Heads", covariant=True, default=Any)
_BatchFirst = TypeVar("_BatchFirst", covariant=True, default=Any)
_KDim = TypeVar("_KDim", covariant=True, default=Any)
_VDim = TypeVar("_VDim", covariant=True, default=Any)
_AddBiasKV = TypeVar("_AddBiasKV", covariant=True, default=Any)
_AddZeroAttn = TypeVar("_AddZeroAttn", covariant=True, default=Any)
_Dim = TypeVar("_Dim", covariant=True, default=Any)

class Threshold(Module):
    __constants__: list[str]
    threshold: float
    value: float
    inplace: bool
    def __init__(self, threshold: float, value: float, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class ReLU(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class RReLU(Module):
    __constants__: list[str]
    lower: float
    upper: float
    inplace: bool
    def __init__(self, lower: float = ..., upper: float = ..., inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Hardtanh(Module):
    __constants__: list[str]
    min_val: float
    max_val: float
    inplace: bool
    def __init__(
        self,
        min_val: float = -1.0,
        max_val: float = 1.0,
        inplace: bool = False,
        min_value: float | None = None,
        max_value: float | None = None,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class ReLU6(Hardtanh):
    def __init__(self, inplace: bool = False) -> None: ...
    def extra_repr(self) -> str: ...

class Sigmoid(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class Hardsigmoid(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class Tanh(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class SiLU(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Mish(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Hardswish(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class ELU(Module):
    __constants__: list[str]
    alpha: float
    inplace: bool
    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class CELU(Module):
    __constants__: list[str]
    alpha: float
    inplace: bool
    def __init__(self, alpha: float = 1.0, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class SELU(Module):
    __constants__: list[str]
    inplace: bool
    def __init__(self, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class GLU(Module, Generic[_Dim]):
    __constants__: list[str]
    dim: int
    def __init__(self, dim: int = -1) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class GELU(Module):
    __constants__: list[str]
    approximate: str
    def __init__(self, approximate: str = "none") -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Hardshrink(Module):
    __constants__: list[str]
    lambd: float
    def __init__(self, lambd: float = 0.5) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class LeakyReLU(Module):
    __constants__: list[str]
    inplace: bool
    negative_slope: float
    def __init__(self, negative_slope: float = 0.01, inplace: bool = False) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class LogSigmoid(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class Softplus(Module):
    __constants__: list[str]
    beta: float
    threshold: float
    def __init__(self, beta: float = 1.0, threshold: float = 20.0) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Softshrink(Module):
    __constants__: list[str]
    lambd: float
    def __init__(self, lambd: float = 0.5) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

def _check_arg_device(x: torch.Tensor | None) -> bool: ...
def _arg_requires_grad(x: torch.Tensor | None) -> bool: ...
def _is_make_fx_tracing(): ...

class MultiheadAttention(Module, Generic[_Embed, _Heads, _BatchFirst, _KDim, _VDim, _AddBiasKV, _AddZeroAttn]):
    __constants__: list[str]
    bias_k: Tensor | None
    bias_v: Tensor | None
    embed_dim: int
    kdim: int
    vdim: int
    _qkv_same_embed_dim: bool
    num_heads: int
    dropout: float
    batch_first: bool
    head_dim: int
    out_proj: NonDynamicallyQuantizableLinear
    add_zero_attn: bool
    q_proj_weight: Any  # a Parameter, or None (torch assigns them in an untyped __init__)
    k_proj_weight: Any
    v_proj_weight: Any
    in_proj_weight: Any
    in_proj_bias: Any
    def __init__(
        self,
        # untyped, as torch's own `__init__` is (mypy reads every argument as `Any`): the plugin
        # reads the sizes from the values
        embed_dim,
        num_heads,
        dropout=0.0,
        bias=True,
        add_bias_kv=False,
        add_zero_attn=False,
        kdim=None,
        vdim=None,
        batch_first=False,
        device=None,
        dtype=None,
    ) -> None: ...
    def _reset_parameters(self) -> None: ...
    def __setstate__(self, state): ...
    def forward(
        self,
        query: Tensor,
        key: Tensor,
        value: Tensor,
        key_padding_mask: Tensor | None = None,
        need_weights: bool = True,
        attn_mask: Tensor | None = None,
        average_attn_weights: bool = True,
        is_causal: bool = False,
    ) -> tuple[Tensor, Tensor | None]: ...
    def merge_masks(
        self, attn_mask: Tensor | None, key_padding_mask: Tensor | None, query: Tensor
    ) -> tuple[Tensor | None, int | None]: ...

class PReLU(Module):
    __constants__: list[str]
    num_parameters: int
    init: float
    weight: Parameter
    def __init__(self, num_parameters: int = 1, init: float = 0.25, device=None, dtype=None) -> None: ...
    def reset_parameters(self) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Softsign(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class Tanhshrink(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class Softmin(Module):
    __constants__: list[str]
    dim: int | None
    def __init__(self, dim: int | None = None) -> None: ...
    def __setstate__(self, state): ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Softmax(Module):
    __constants__: list[str]
    dim: int | None
    def __init__(self, dim: int | None = None) -> None: ...
    def __setstate__(self, state): ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class Softmax2d(Module):
    def forward(self, input: Tensor) -> Tensor: ...

class LogSoftmax(Module):
    __constants__: list[str]
    dim: int | None
    def __init__(self, dim: int | None = None) -> None: ...
    def __setstate__(self, state): ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
