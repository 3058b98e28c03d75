# tyr's stub for torch/nn/parameter.py (torch 2.13): `Parameter` and `Buffer` are generic in their
# shape, as `Tensor` is, so `nn.Parameter(torch.zeros(1, 1, d))` is `Parameter[1, 1, D]` and a
# positional embedding or a class token keeps its shape.  Everything else is as torch types it.

from typing import Any, Generic

from typing_extensions import TypeIs, TypeVarTuple, Unpack

from torch import Tensor, device, dtype

_Shape = TypeVarTuple("_Shape", default=Unpack[tuple[Any, ...]])

class Parameter(Tensor[Unpack[_Shape]], Generic[Unpack[_Shape]]):
    def __init__(self, data: Tensor[Unpack[_Shape]] = ..., requires_grad: bool = ...) -> None: ...

def is_lazy(
    param: Tensor,
) -> TypeIs[UninitializedParameter | UninitializedBuffer]: ...

class UninitializedParameter(Tensor):
    def __init__(self, data: Tensor = ..., requires_grad: bool = ...) -> None: ...
    def materialize(
        self,
        shape: tuple[int, ...],
        device: device | None = None,
        dtype: dtype | None = None,
    ) -> None: ...

class Buffer(Tensor[Unpack[_Shape]], Generic[Unpack[_Shape]]):
    persistent: bool
    def __init__(
        self,
        data: Tensor[Unpack[_Shape]] = ...,
        requires_grad: bool = ...,
        persistent: bool = ...,
    ) -> None: ...

class UninitializedBuffer(Tensor):
    persistent: bool
    def __init__(
        self,
        data: Tensor = ...,
        requires_grad: bool = ...,
        persistent: bool = ...,
    ) -> None: ...
    def materialize(
        self,
        shape: tuple[int, ...],
        device: device | None = None,
        dtype: dtype | None = None,
    ) -> None: ...
