"""`torch.searchsorted` / `torch.bucketize`: an index per value, in the shape of the values.

A 1-d sorted sequence takes values of any shape; an N-d one needs values of N dims with the same
leading N - 1 sizes.  A Python number is a 0-d value.  `bucketize` takes 1-d boundaries only.
"""

from typing import Any, TypeVar, reveal_type

import torch

from tyr import Tensor

B = TypeVar("B")
C = TypeVar("C")
N = TypeVar("N")
T = TypeVar("T")


def run(seq: Tensor[N], rows: Tensor[B, N], v: Tensor[B, T], w: Tensor[C, T], s: Tensor[3, 10], idx: Tensor[N], u: Any) -> None:
    reveal_type(torch.searchsorted(seq, v))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.searchsorted(rows, v))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.searchsorted(seq, 3))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.searchsorted(seq, torch.zeros(())))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.searchsorted(torch.zeros(0), torch.zeros(4, 0)))  # N: Revealed type is "torch._tensor.Tensor[Literal[4], Literal[0]]"
    reveal_type(torch.searchsorted(s, torch.zeros(3, 0), side="right"))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[0]]"
    reveal_type(torch.searchsorted(seq, v, right=True, out_int32=True, sorter=idx))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.searchsorted(sorted_sequence=rows, input=v))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.searchsorted(u, v))  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(torch.bucketize(v, seq))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.bucketize(3, seq, right=True))  # N: Revealed type is "torch._tensor.Tensor[()]"
    torch.searchsorted(rows, w)  # E: searchsorted: dimension 0 of sorted_sequence (B) does not match dimension 0 of values (C)  [tyr-shape]
    torch.searchsorted(s, torch.zeros(1, 7))  # E: searchsorted: dimension 0 of sorted_sequence (3) does not match dimension 0 of values (1)  [tyr-shape]
    torch.searchsorted(rows, seq)  # E: searchsorted: values (N,) must have the 2 dims of sorted_sequence (B, N)  [tyr-shape]
    torch.searchsorted(s, 2.0)  # E: searchsorted: a 0-d value needs a 1-d sorted_sequence, not (3, 10)  [tyr-shape]
    torch.searchsorted(torch.zeros(()), v)  # E: searchsorted: sorted_sequence must have at least 1 dim, got a 0-d tensor  [tyr-shape]
    torch.searchsorted(torch.zeros(10), v, sorter=torch.zeros(9, dtype=torch.long))  # E: searchsorted: the sorter (9,) must have the shape of sorted_sequence (10,)  [tyr-shape]
    torch.bucketize(v, rows)  # E: bucketize: the boundaries must be 1-d, not (B, N)  [tyr-shape]
    torch.bucketize(1.0, torch.zeros(()))  # E: bucketize: the boundaries must be 1-d, not ()  [tyr-shape]
