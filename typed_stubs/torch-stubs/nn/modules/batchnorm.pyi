# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/batchnorm.py (torch 2.13): the batch norms are generic in their channels.
#
# `BatchNorm2d[C]` carries `num_features`; the tyr mypy plugin binds it from the
# constructor and checks that the input's channel dim (dim 1) is `C`.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor
from torch.nn.parameter import Parameter, UninitializedParameter

from .lazy import LazyModuleMixin
from .module import Module

__all__ = [
    "BatchNorm1d",
    "LazyBatchNorm1d",
    "BatchNorm2d",
    "LazyBatchNorm2d",
    "BatchNorm3d",
    "LazyBatchNorm3d",
    "SyncBatchNorm",
]

_Features = TypeVar("_Features", covariant=True, default=Any)

class _NormBase(Module, Generic[_Features]):
    _version: int
    __constants__: list[str]
    num_features: int
    eps: float
    momentum: float | None
    affine: bool
    track_running_stats: bool
    weight: Parameter
    bias: Parameter
    running_mean: Tensor | None
    running_var: Tensor | None
    num_batches_tracked: Tensor | None
    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None: ...
    def reset_running_stats(self) -> None: ...
    def reset_parameters(self) -> None: ...
    def _check_input_dim(self, input): ...
    def extra_repr(self): ...
    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None: ...

class _BatchNorm(_NormBase[_Features]):
    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class _LazyNormBase(LazyModuleMixin, _NormBase[Any]):
    weight: UninitializedParameter  # type: ignore[assignment]
    bias: UninitializedParameter  # type: ignore[assignment]
    def __init__(
        self,
        eps=1e-05,
        momentum=0.1,
        affine=True,
        track_running_stats=True,
        device=None,
        dtype=None,
        *,
        bias=True,
    ) -> None: ...
    def reset_parameters(self) -> None: ...
    def initialize_parameters(self, input) -> None: ...

class BatchNorm1d(_BatchNorm[_Features]):
    def _check_input_dim(self, input) -> None: ...

class LazyBatchNorm1d(_LazyNormBase, _BatchNorm[Any]):
    cls_to_become = BatchNorm1d
    def _check_input_dim(self, input) -> None: ...

class BatchNorm2d(_BatchNorm[_Features]):
    def _check_input_dim(self, input) -> None: ...

class LazyBatchNorm2d(_LazyNormBase, _BatchNorm[Any]):
    cls_to_become = BatchNorm2d
    def _check_input_dim(self, input) -> None: ...

class BatchNorm3d(_BatchNorm[_Features]):
    def _check_input_dim(self, input) -> None: ...

class LazyBatchNorm3d(_LazyNormBase, _BatchNorm[Any]):
    cls_to_become = BatchNorm3d
    def _check_input_dim(self, input) -> None: ...

class SyncBatchNorm(_BatchNorm[_Features]):
    process_group: Any | None
    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float | None = 0.1,
        affine: bool = True,
        track_running_stats: bool = True,
        process_group: Any | None = None,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None: ...
    def _check_input_dim(self, input) -> None: ...
    def _check_non_zero_input_channels(self, input) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    @classmethod
    def convert_sync_batchnorm(cls, module, process_group=None): ...
