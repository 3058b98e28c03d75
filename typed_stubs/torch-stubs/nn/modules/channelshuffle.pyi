# mypy: allow-untyped-defs, allow-incomplete-defs
# tyr's stub for torch/nn/modules/channelshuffle.py (torch 2.13): `ChannelShuffle[Groups]` carries its groups.
#
# The tyr mypy plugin binds `Groups` from the constructor's argument (an int literal, or a
# `Dim`) and routes `shuffle(x)` to the `channel_shuffle` shape rule.

from typing import Any, Generic

from typing_extensions import TypeVar

from torch import Tensor

from .module import Module

__all__ = ["ChannelShuffle"]

_Groups = TypeVar("_Groups", covariant=True, default=Any)

class ChannelShuffle(Module, Generic[_Groups]):
    __constants__: list[str]
    groups: int
    def __init__(self, groups: int) -> None: ...
    def forward(self, input: Tensor) -> Tensor: ...
    def extra_repr(self) -> str: ...
