"""`x.index_put_(indices, values)` (and `index_put`, `accumulate` or not): the indices read as the subscript
`x[i, j]`, the values broadcast into `x[i, j]` without growing it.  Unlike `x[i, j] = values`, torch drops none
of the values' leading dims of size 1 (but for one mask and a value of one element, its masked_fill_)."""

from typing import TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")


def put(x: Tensor[B, 5, 6], i: Tensor[2], j: Tensor[2], keep: Tensor[B, 5]) -> None:
    reveal_type(x.index_put_((i, j), torch.ones(2, 6)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], Literal[6]]"
    reveal_type(x.index_put((i, j), torch.ones(6), accumulate=True))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], Literal[6]]"
    reveal_type(torch.index_put(x, [i], torch.ones(2, 5, 6)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], Literal[6]]"
    reveal_type(x.index_put_((keep > 0,), torch.tensor(0.0)))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[5], Literal[6]]"
    x.index_put_((keep > 0,), torch.ones(1, 1))  # one mask and one value: torch's masked_fill_, any number of dims
    x[i, j] = torch.ones(1, 2, 6)
    x.index_put_((i, j), torch.ones(1, 2, 6))  # E: index_put_: shape (1, 2, 6) has more dimensions than the target (2, 6)  [tyr-shape]
    x.index_put_((i, j), torch.ones(3, 6), accumulate=True)  # E: index_put_: dimension 0 of the operand (3) does not broadcast with dimension 0 of the target (2); shapes (3, 6) and (2, 6)  [tyr-shape]
    torch.index_put(x, (i, j), torch.ones(2, 5))  # E: index_put: dimension 1 of the operand (5) does not broadcast with dimension 1 of the target (6); shapes (2, 5) and (2, 6)  [tyr-shape]
    x.index_put_((torch.tensor([0, 1, 2]), j), torch.ones(6))  # E: index_put_: index (index tensors): dimension 0 of the index of dim 0 (3) does not broadcast with dimension 0 of the index of dim 1 (2)  [tyr-shape]
