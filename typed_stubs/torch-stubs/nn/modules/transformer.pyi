# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/transformer.py (torch 2.13).
#
# `TransformerEncoderLayer[DModel, NHead, BatchFirst]` and `TransformerDecoderLayer[...]` carry
# the constructor arguments that shape their inputs, `Transformer[DModel, NHead, BatchFirst]`
# too, and the stacks `TransformerEncoder[Layer]` / `TransformerDecoder[Layer]` the type of the
# layer they clone; the tyr mypy plugin binds them from the constructor's arguments, so
# `layer(src)` is checked as torch checks it (src's last dim is d_model, a decoder's memory
# has tgt's batch).  Without the plugin the arguments default to `Any`.  Everything else is
# as torch types it.

# torch's module imports these, which mypy lets code import from it (`from torch.nn.modules.transformer
# import Linear`): a stub re-exports only what it names so.
import copy as copy
import warnings as warnings
from collections.abc import Callable as Callable
from typing import Any as Any
from typing import Generic

from typing_extensions import TypeVar

import torch as torch
from torch import Tensor as Tensor
from torch.nn.init import xavier_uniform_ as xavier_uniform_

from .activation import MultiheadAttention as MultiheadAttention
from .container import ModuleList as ModuleList
from .dropout import Dropout as Dropout
from .linear import Linear as Linear
from .module import Module as Module
from .normalization import LayerNorm as LayerNorm

__all__ = [
    "Transformer",
    "TransformerEncoder",
    "TransformerDecoder",
    "TransformerEncoderLayer",
    "TransformerDecoderLayer",
]

_DModel = TypeVar("_DModel", covariant=True, default=Any)
_NHead = TypeVar("_NHead", covariant=True, default=Any)
_BatchFirst = TypeVar("_BatchFirst", covariant=True, default=Any)
_Layer = TypeVar("_Layer", covariant=True, default=Any)

def _generate_square_subsequent_mask(
    sz: int, device: torch.device | None = None, dtype: torch.dtype | None = None
) -> Tensor: ...
def _get_seq_len(src: Tensor, batch_first: bool) -> int | None: ...

class Transformer(Module, Generic[_DModel, _NHead, _BatchFirst]):
    encoder: Any
    decoder: Any
    d_model: int
    nhead: int
    batch_first: bool
    def __init__(
        self,
        d_model: int = 512,
        nhead: int = 8,
        num_encoder_layers: int = 6,
        num_decoder_layers: int = 6,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = ...,
        custom_encoder: Any | None = None,
        custom_decoder: Any | None = None,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None: ...
    def forward(
        self,
        src: Tensor,
        tgt: Tensor,
        src_mask: Tensor | None = None,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        src_is_causal: bool | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor: ...
    @staticmethod
    def generate_square_subsequent_mask(
        sz: int, device: torch.device | None = None, dtype: torch.dtype | None = None
    ) -> Tensor: ...
    def _reset_parameters(self) -> None: ...

class TransformerEncoder(Module, Generic[_Layer]):
    __constants__: list[str]
    layers: Any
    num_layers: int
    norm: Module | None
    enable_nested_tensor: bool
    use_nested_tensor: bool
    mask_check: bool
    def __init__(
        self,
        encoder_layer: TransformerEncoderLayer,
        num_layers: int,
        norm: Module | None = None,
        enable_nested_tensor: bool = True,
        mask_check: bool = True,
    ) -> None: ...
    def forward(
        self,
        src: Tensor,
        mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool | None = None,
    ) -> Tensor: ...

class TransformerDecoder(Module, Generic[_Layer]):
    __constants__: list[str]
    layers: Any
    num_layers: int
    norm: Module | None
    def __init__(self, decoder_layer: TransformerDecoderLayer, num_layers: int, norm: Module | None = None) -> None: ...
    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool | None = None,
        memory_is_causal: bool = False,
    ) -> Tensor: ...

class TransformerEncoderLayer(Module, Generic[_DModel, _NHead, _BatchFirst]):
    __constants__: list[str]
    self_attn: MultiheadAttention
    linear1: Linear
    dropout: Dropout
    linear2: Linear
    norm_first: bool
    norm1: LayerNorm
    norm2: LayerNorm
    dropout1: Dropout
    dropout2: Dropout
    activation_relu_or_gelu: int
    activation: Callable[[Tensor], Tensor]
    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = ...,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None: ...
    def __setstate__(self, state) -> None: ...
    def forward(
        self,
        src: Tensor,
        src_mask: Tensor | None = None,
        src_key_padding_mask: Tensor | None = None,
        is_causal: bool = False,
    ) -> Tensor: ...
    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool = False
    ) -> Tensor: ...
    def _ff_block(self, x: Tensor) -> Tensor: ...

class TransformerDecoderLayer(Module, Generic[_DModel, _NHead, _BatchFirst]):
    __constants__: list[str]
    self_attn: MultiheadAttention
    multihead_attn: MultiheadAttention
    linear1: Linear
    dropout: Dropout
    linear2: Linear
    norm_first: bool
    norm1: LayerNorm
    norm2: LayerNorm
    norm3: LayerNorm
    dropout1: Dropout
    dropout2: Dropout
    dropout3: Dropout
    activation: Callable[[Tensor], Tensor]
    def __init__(
        self,
        d_model: int,
        nhead: int,
        dim_feedforward: int = 2048,
        dropout: float = 0.1,
        activation: str | Callable[[Tensor], Tensor] = ...,
        layer_norm_eps: float = 1e-5,
        batch_first: bool = False,
        norm_first: bool = False,
        bias: bool = True,
        device=None,
        dtype=None,
    ) -> None: ...
    def __setstate__(self, state) -> None: ...
    def forward(
        self,
        tgt: Tensor,
        memory: Tensor,
        tgt_mask: Tensor | None = None,
        memory_mask: Tensor | None = None,
        tgt_key_padding_mask: Tensor | None = None,
        memory_key_padding_mask: Tensor | None = None,
        tgt_is_causal: bool = False,
        memory_is_causal: bool = False,
    ) -> Tensor: ...
    def _sa_block(
        self, x: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool = False
    ) -> Tensor: ...
    def _mha_block(
        self, x: Tensor, mem: Tensor, attn_mask: Tensor | None, key_padding_mask: Tensor | None, is_causal: bool = False
    ) -> Tensor: ...
    def _ff_block(self, x: Tensor) -> Tensor: ...

def _get_clones(module, N): ...
def _get_activation_fn(activation: str) -> Callable[[Tensor], Tensor]: ...
def _detect_is_causal_mask(mask: Tensor | None, is_causal: bool | None = None, size: int | None = None) -> bool: ...
