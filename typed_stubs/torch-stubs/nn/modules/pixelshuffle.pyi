# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/pixelshuffle.py (torch 2.13): the shuffles carry their factor.
#
# `PixelShuffle[Factor]` and `PixelUnshuffle[Factor]` (an int literal type) are bound
# by the tyr mypy plugin from the constructor's argument; `shuffle(x)` goes to the
# `pixel_shuffle` shape rule.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor

from .module import Module

__all__ = ["PixelShuffle", "PixelUnshuffle"]

_Factor = TypeVar("_Factor", covariant=True, default=Any)

class PixelShuffle(Module, Generic[_Factor]):
    __constants__: list[str]
    upscale_factor: int
    def __init__(self, upscale_factor: int) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...

class PixelUnshuffle(Module, Generic[_Factor]):
    __constants__: list[str]
    downscale_factor: int
    def __init__(self, downscale_factor: int) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
