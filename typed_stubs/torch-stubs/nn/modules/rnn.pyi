# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/rnn.py (torch 2.13): the recurrent layers are generic in their sizes.
#
# `RNN[InputSize, HiddenSize, NumLayers, BatchFirst, Bidirectional]` and `GRU[...]` (the same) carry
# the sizes and flags that decide the shapes of `forward`'s results; `LSTM[...]` carries its
# `ProjSize` too.  The tyr mypy plugin binds them from the constructor's arguments and routes
# `rnn(x, h0)` to the `recurrent` shape rule.  `RNNCell[InputSize, HiddenSize]`, `GRUCell` and
# `LSTMCell` go to `recurrent_cell`.  Without the plugin they default to `Any`.
# Everything else is as torch types it (the constructors keep their `(*args, **kwargs)` overload).

import weakref
from typing import Any, Generic, overload

from typing_extensions import TypeVar, deprecated

from torch import Tensor
from torch.nn.parameter import Parameter
from torch.nn.utils.rnn import PackedSequence

from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_InputSize = TypeVar("_InputSize", covariant=True, default=Any)
_HiddenSize = TypeVar("_HiddenSize", covariant=True, default=Any)
_NumLayers = TypeVar("_NumLayers", covariant=True, default=Any)
_BatchFirst = TypeVar("_BatchFirst", covariant=True, default=Any)
_Bidirectional = TypeVar("_Bidirectional", covariant=True, default=Any)
_ProjSize = TypeVar("_ProjSize", covariant=True, default=Any)

def _apply_permutation(tensor: Tensor, permutation: Tensor, dim: int = 1) -> Tensor: ...
@deprecated("`apply_permutation` is deprecated, please use `tensor.index_select(dim, permutation)` instead")
def apply_permutation(tensor: Tensor, permutation: Tensor, dim: int = 1) -> Tensor: ...

class RNNBase(Module):
    __constants__: list[str]
    __jit_unused_properties__: list[str]
    mode: str
    input_size: int
    hidden_size: int
    num_layers: int
    bias: bool
    batch_first: bool
    dropout: float
    bidirectional: bool
    proj_size: int
    _flat_weight_refs: list[weakref.ReferenceType[Parameter] | None]
    _flat_weights_names: list[str]
    _all_weights: list[list[str]]
    _flat_weights: list[Any]
    def __init__(
        self,
        mode: str,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None: ...
    def _init_flat_weights(self) -> None: ...
    def __setattr__(self, attr, value) -> None: ...
    def flatten_parameters(self) -> None: ...
    def _apply(self, fn, recurse=True): ...
    def reset_parameters(self) -> None: ...
    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None: ...
    def get_expected_hidden_size(self, input: Tensor, batch_sizes: Tensor | None) -> tuple[int, int, int]: ...
    def check_hidden_size(
        self, hx: Tensor, expected_hidden_size: tuple[int, int, int], msg: str = "Expected hidden size {}, got {}"
    ) -> None: ...
    def _weights_have_changed(self): ...
    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes: Tensor | None) -> None: ...
    def permute_hidden(self, hx: Tensor, permutation: Tensor | None): ...
    def extra_repr(self) -> str: ...
    def _update_flat_weights(self) -> None: ...
    def __getstate__(self): ...
    def __setstate__(self, d): ...
    @property
    def all_weights(self) -> list[list[Parameter]]: ...
    def _replicate_for_data_parallel(self): ...

class RNN(RNNBase, Generic[_InputSize, _HiddenSize, _NumLayers, _BatchFirst, _Bidirectional]):
    nonlinearity: Any
    @overload
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        nonlinearity: str = "tanh",
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device=None,
        dtype=None,
    ) -> None: ...
    @overload
    def __init__(self, *args, **kwargs) -> None: ...
    @overload
    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]: ...
    @overload
    def forward(self, input: PackedSequence, hx: Tensor | None = None) -> tuple[PackedSequence, Tensor]: ...

class LSTM(RNNBase, Generic[_InputSize, _HiddenSize, _NumLayers, _BatchFirst, _Bidirectional, _ProjSize]):
    @overload
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        proj_size: int = 0,
        device=None,
        dtype=None,
    ) -> None: ...
    @overload
    def __init__(self, *args, **kwargs) -> None: ...
    def get_expected_cell_size(self, input: Tensor, batch_sizes: Tensor | None) -> tuple[int, int, int]: ...
    def check_forward_args(  # type: ignore[override]
        self, input: Tensor, hidden: tuple[Tensor, Tensor], batch_sizes: Tensor | None
    ) -> None: ...
    def permute_hidden(  # type: ignore[override]
        self, hx: tuple[Tensor, Tensor], permutation: Tensor | None
    ) -> tuple[Tensor, Tensor]: ...
    @overload
    def forward(
        self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[Tensor, tuple[Tensor, Tensor]]: ...
    @overload
    def forward(
        self, input: PackedSequence, hx: tuple[Tensor, Tensor] | None = None
    ) -> tuple[PackedSequence, tuple[Tensor, Tensor]]: ...

class GRU(RNNBase, Generic[_InputSize, _HiddenSize, _NumLayers, _BatchFirst, _Bidirectional]):
    @overload
    def __init__(
        self,
        input_size: int,
        hidden_size: int,
        num_layers: int = 1,
        bias: bool = True,
        batch_first: bool = False,
        dropout: float = 0.0,
        bidirectional: bool = False,
        device=None,
        dtype=None,
    ) -> None: ...
    @overload
    def __init__(self, *args, **kwargs) -> None: ...
    @overload
    def forward(self, input: Tensor, hx: Tensor | None = None) -> tuple[Tensor, Tensor]: ...
    @overload
    def forward(self, input: PackedSequence, hx: Tensor | None = None) -> tuple[PackedSequence, Tensor]: ...

class RNNCellBase(Module):
    __constants__: list[str]
    input_size: int
    hidden_size: int
    bias: bool
    weight_ih: Tensor
    weight_hh: Tensor
    bias_ih: Parameter
    bias_hh: Parameter
    def __init__(
        self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None, dtype=None
    ) -> None: ...
    def extra_repr(self) -> str: ...
    def reset_parameters(self) -> None: ...

class RNNCell(RNNCellBase, Generic[_InputSize, _HiddenSize]):
    nonlinearity: str
    def __init__(
        self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh", device=None, dtype=None
    ) -> None: ...
    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor: ...

class LSTMCell(RNNCellBase, Generic[_InputSize, _HiddenSize]):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None: ...
    def forward(self, input: Tensor, hx: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]: ...

class GRUCell(RNNCellBase, Generic[_InputSize, _HiddenSize]):
    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None: ...
    def forward(self, input: Tensor, hx: Tensor | None = None) -> Tensor: ...
