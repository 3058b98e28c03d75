"""A type variable that a function's signature names only inside size strings (`"2*N"`, `"2*D"`) is the
same variable in the body's own annotations, written in a string or bare, as in the signature: they
check against the signature's sizes, and a different variable is still an error."""

from typing import TypeVar

import torch

from tyr import Tensor

B = TypeVar("B")
D = TypeVar("D")
E = TypeVar("E")
H = TypeVar("H")
N = TypeVar("N")


def rows(x: Tensor["2*N", "2*D"]) -> None:
    h: Tensor["2*D"] = x[0]
    s: Tensor["2*D"] = x.sum(0)
    m: Tensor["2*N"] = x @ torch.zeros(x.shape[1])


def heads(x: Tensor[3, "H*N", "D//H"]) -> None:
    y: Tensor[3, "D//H"] = torch.randn(x.shape[1]) @ x


def halves(y: Tensor[B, "2*D"]) -> None:
    even: Tensor[B, D] = y[:, ::2]
    whole: Tensor[B, "2*D"] = y
    wrong: Tensor[B, D] = y  # E: Incompatible types in assignment (expression has type "Tensor[B, DimExpr[Literal['2*D'], D]]", variable has type "Tensor[B, D]")  [assignment]

    def inner(q: Tensor[B, "2*E"]) -> None:
        mine: Tensor[B, E] = q[:, 1::2]
        outer: Tensor[B, D] = q[:, 1::2]  # E: Incompatible types in assignment (expression has type "Tensor[B, E]", variable has type "Tensor[B, D]")  [assignment]
