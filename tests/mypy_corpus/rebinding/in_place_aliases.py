"""A tensor changed in place is changed under every name that holds it: after `x.t_()`, a `y = x`
(or `y = x.contiguous()`, `y = x.unsqueeze_(0)`, `y = helper(x)`, a list holding `x`) reads as a
tensor of unknown shape, never the shape it had.  A new tensor made from `x` (`x.view(...)`,
`x.clone()`, `x + 1`) keeps its shape.  `out=` and `x.data = ...` change a tensor too."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

T = TypeVar("T")
D = TypeVar("D")


def helper(t: torch.Tensor) -> torch.Tensor:
    return t


def a_name_for_the_same_tensor(x: Tensor[T, D]) -> None:
    y = x
    z = x.contiguous()
    w = helper(x)
    v = x.view(-1)
    c = x.clone()
    x.unsqueeze_(0)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Literal[1], T, D]"
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(w)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(v)  # N: Revealed type is "torch._tensor.Tensor[tyr._static.DimExpr[Literal['D*T'], D, T]]"
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[T, D]"


def a_chain_of_in_place_results(x: Tensor[2, 3, 4]) -> None:
    x2 = x.unsqueeze_(0)  # `x2` is `x`
    x3 = x2.transpose_(0, 1)  # and so is `x3`: all three are (2, 1, 3, 4) now
    reveal_type(x3)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[1], Literal[3], Literal[4]]"
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(x2)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def changed_through_a_loop_name(a: Tensor[2, 3], b: Tensor[4, 5]) -> None:
    for t in (a, b):
        t.t_()
    reveal_type(a)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(b)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def written_out(a: Tensor[2, 3]) -> None:
    y = torch.empty(5)
    torch.add(a, a, out=y)  # torch resizes `y` to (2, 3)
    reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"


def data_replaced(a: Tensor[2, 3]) -> None:
    a.data = torch.zeros(7)
    reveal_type(a)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
