"""Methods that change a tensor's shape in place (`unsqueeze_`, `t_`, `transpose_`, `resize_`, ...):
the name holds the new shape after the call, and where the call may not have run (a branch, a
loop) a tensor of unknown shape, never the old shape."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")
T = TypeVar("T")
D = TypeVar("D")


def unsqueezed(m: Tensor[T, D]) -> None:
    y = m.clone()
    y.unsqueeze_(0)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], T, D]"
    n1, n2, n3 = y.size()
    c = nn.Conv1d(y.shape[1], 2, 1)(y)
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], Literal[2], D]"
    y.squeeze_(0)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[T, D]"


def chained(m: Tensor[T, D]) -> None:
    y = m.clone()
    y.unsqueeze_(0).unsqueeze_(-1)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], T, D, Literal[1]]"


def transposed(m: Tensor[T, D]) -> None:
    m.t_()
    reveal_type(m)  # N: Revealed type is "torch._tensor.Tensor[D, T]"
    m.swapdims_(0, 1)
    reveal_type(m)  # N: Revealed type is "torch._tensor.Tensor[T, D]"


def resized(x: Tensor[B, T, D]) -> None:
    y = x.clone()
    y.resize_(y.numel())
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['B*D*T'], B, D, T]]"
    z = y.transpose(-1, 0)


def in_a_branch(x: Tensor[B, T, D], flag: bool) -> None:
    y = x.clone()
    if flag:
        y.unsqueeze_(0)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    z = y.transpose(-4, 0)


def in_a_loop(x: Tensor[B, T, D]) -> None:
    y = x.clone()
    for _ in range(2):
        y.unsqueeze_(0)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def still_caught(x: Tensor[B, T, D]) -> None:
    y = x.clone()
    y.unsqueeze_(0)
    z = y.transpose(-5, 0)  # E: transpose: dimension -5 is out of range for a 4-d tensor (expected -4 to 3)  [tyr-shape]
