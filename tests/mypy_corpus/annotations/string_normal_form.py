"""Dimension strings are normalised: `4*D` is `D*4`, `(N+M)-M` is `N`, a lone name is the TypeVar."""

from typing import TypeVar, reveal_type

from tyr import Tensor

D = TypeVar("D")
N = TypeVar("N")
M = TypeVar("M")


def same(x: Tensor["4*D"], y: Tensor["D*4"], z: Tensor["(N+M)-M"], w: Tensor["D"]) -> Tensor["2*D + 2*D"]:
    reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[N]"
    reveal_type(w)  # N: Revealed type is "torch._tensor.Tensor[D]"
    x = y
    return x
