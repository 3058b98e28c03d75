# tyr's stub for einops/layers/torch.py (einops 0.8): the layers carry their pattern in their type.
#
# `Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=16, p2=16)` is
# `Rearrange[Literal["b c (h p1) (w p2) -> b (h w) (p1 p2 c)"], Literal["p1"], Literal[16],
# Literal["p2"], Literal[16]]`: the pattern, then each keyword length as its name and its size
# (a literal, a TypeVar of a `Dim`, a `DimExpr`, or `Any` when unknown).  `Reduce` has its
# reduction after the pattern.  The tyr mypy plugin binds these from the constructor's arguments
# and applies the einops shape rules in `forward`, also inside `nn.Sequential`.  Without the
# plugin the arguments default to `Any`.  Everything else is as einops types it.

from typing import Any, Dict, Generic, Optional

import torch
from einops._torch_specific import apply_for_scriptable_torch as apply_for_scriptable_torch
from einops.layers import RearrangeMixin as RearrangeMixin
from einops.layers import ReduceMixin as ReduceMixin
from einops.layers._einmix import _EinmixMixin
from torch import Tensor
from typing_extensions import TypeVar, TypeVarTuple, Unpack

_Pattern = TypeVar("_Pattern", default=Any)
_Reduction = TypeVar("_Reduction", default=Any)
_Lengths = TypeVarTuple("_Lengths", default=Unpack[tuple[Any, ...]])

class Rearrange(RearrangeMixin, torch.nn.Module, Generic[_Pattern, Unpack[_Lengths]]):
    def forward(self, input: Tensor) -> Tensor: ...
    def _apply_recipe(self, x: Any) -> None: ...

class Reduce(ReduceMixin, torch.nn.Module, Generic[_Pattern, _Reduction, Unpack[_Lengths]]):
    def forward(self, input: Tensor) -> Tensor: ...
    def _apply_recipe(self, x: Any) -> None: ...

class EinMix(_EinmixMixin, torch.nn.Module):
    weight: torch.nn.Parameter
    bias: Optional[torch.nn.Parameter]
    pre_rearrange: Optional[Rearrange]
    post_rearrange: Optional[Rearrange]
    def _create_parameters(
        self, weight_shape: Any, weight_bound: Any, bias_shape: Any, bias_bound: Any
    ) -> None: ...
    def _create_rearrange_layers(
        self,
        pre_reshape_pattern: Optional[str],
        pre_reshape_lengths: Optional[Dict[Any, Any]],
        post_reshape_pattern: Optional[str],
        post_reshape_lengths: Optional[Dict[Any, Any]],
    ) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
