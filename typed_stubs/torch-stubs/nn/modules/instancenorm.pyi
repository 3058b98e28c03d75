# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/instancenorm.py (torch 2.13): the instance norms are generic in their channels.
#
# `InstanceNorm2d[C]` carries `num_features`, which torch checks against the input's channel
# dim only where the module has affine weights (`affine=True`; otherwise it warns).  The tyr
# mypy plugin binds `C` from the constructor where `affine` is literally True, and leaves it
# unknown elsewhere.

from typing import Any

from typing_extensions import TypeVar

from torch import Tensor

from .batchnorm import _LazyNormBase, _NormBase

__all__ = [
    "InstanceNorm1d",
    "InstanceNorm2d",
    "InstanceNorm3d",
    "LazyInstanceNorm1d",
    "LazyInstanceNorm2d",
    "LazyInstanceNorm3d",
]

_Features = TypeVar("_Features", covariant=True, default=Any)

class _InstanceNorm(_NormBase[_Features]):
    def __init__(
        self,
        num_features: int,
        eps: float = 1e-05,
        momentum: float = 0.1,
        affine: bool = False,
        track_running_stats: bool = False,
        device=None,
        dtype=None,
        *,
        bias: bool = True,
    ) -> None: ...
    def _check_input_dim(self, input): ...
    def _get_no_batch_dim(self): ...
    def _handle_no_batch_input(self, input): ...
    def _apply_instance_norm(self, input): ...
    def _load_from_state_dict(
        self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...

class InstanceNorm1d(_InstanceNorm[_Features]):
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...

class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm[Any]):
    cls_to_become = InstanceNorm1d
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...

class InstanceNorm2d(_InstanceNorm[_Features]):
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...

class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm[Any]):
    cls_to_become = InstanceNorm2d
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...

class InstanceNorm3d(_InstanceNorm[_Features]):
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...

class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm[Any]):
    cls_to_become = InstanceNorm3d
    def _get_no_batch_dim(self): ...
    def _check_input_dim(self, input) -> None: ...
