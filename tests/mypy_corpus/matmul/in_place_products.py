"""`addmm_`, `baddbmm_`, `addmv_`, `addr_` write the product into the input, which torch allows only where the
input has the product's shape: it is not broadcast, not even a dim of 1.  `addbmm_` is the exception: torch
resizes an input that broadcasts to the product, so the result has the product's shape."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

N = TypeVar("N")
K = TypeVar("K")
M = TypeVar("M")


def accumulate(acc: Tensor[N, M], a: Tensor[N, K], b: Tensor[K, M], bias: Tensor[M], v: Tensor[K]) -> None:
    reveal_type(acc.addmm_(a, b))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    reveal_type(acc.addmm_(a, b, beta=0.5, alpha=2.0))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    reveal_type(torch.zeros(4, 3, 3).baddbmm_(torch.ones(4, 3, 2), torch.ones(4, 2, 3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[3], Literal[3]]"
    reveal_type(torch.zeros(3).addbmm_(torch.ones(4, 2, 5), torch.ones(4, 5, 3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
    reveal_type(torch.zeros(4).addmv_(torch.ones(4, 5), torch.ones(5)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4]]"
    reveal_type(torch.addmv_(torch.zeros(4), torch.ones(4, 5), torch.ones(5)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4]]"
    reveal_type(acc.addr_(a[:, 0], bias))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    reveal_type(torch.addmm(bias, a, b))  # N: Revealed type is "torch._tensor.Tensor[N, M]"
    bias.addmm_(a, b)  # E: addmm_: the input (M,) must have the product's 2 dims, as the result is written into it  [tyr-shape]
    acc.addmm_(a, a.mT @ a)  # E: addmm_: dimension 1 of the input (M) must be the product's size K  [tyr-shape]
    torch.zeros(1, 3, 3).baddbmm_(torch.ones(4, 3, 2), torch.ones(4, 2, 3))  # E: baddbmm_: dimension 0 of the input (1) must be the product's size 4, as the result is written into the input without broadcasting; shapes (1, 3, 3) and (4, 3, 3)  [tyr-shape]
    torch.zeros(4, 3).addbmm_(torch.ones(4, 2, 5), torch.ones(4, 5, 3))  # E: addbmm_: dimension 0 of the operand (4) does not broadcast with dimension 0 of the target (2); shapes (4, 3) and (2, 3)  [tyr-shape]
    torch.zeros(1).addmv_(torch.ones(4, 5), torch.ones(5))  # E: addmv_: dimension 0 of the input (1) must be the product's size 4  [tyr-shape]
    acc.addr_(v, bias)  # E: addr_: dimension 0 of the input (N) must be the product's size K  [tyr-shape]
