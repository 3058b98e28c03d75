"""An argument no parameter takes (numpy's `axis=`, which torch reads as `dim`): mypy reports it, and
the shape is unknown, never the shape of a call without it."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def numpy_axis(x: Tensor[B, 4, 8]) -> None:
    y = torch.cat([x, x[:, :1]], axis=1)  # E: Unexpected keyword argument "axis" for "cat"  # N: "cat" defined in "torch._C._VariableFunctions"
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    z = x.amax(axis=0)  # E: Unexpected keyword argument "axis" for "amax" of "TensorBase"  # N: "amax" defined in "torch._C"
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(x.amax(0))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[8]]"
