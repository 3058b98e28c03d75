"""Less common ops torch checks too: Vandermonde matrices of vectors, norms
over channels whose statistics and inputs must fit."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Tensor

N = TypeVar("N")


def ops(v: Tensor[N], m: Tensor[3, 4], x: Tensor[2, 3, 8]) -> None:
    reveal_type(torch.vander(v))  # N: Revealed type is "torch._tensor.Tensor[N, N]"
    reveal_type(torch.vander(v, N=3))  # N: Revealed type is "torch._tensor.Tensor[N, Literal[3]]"
    torch.vander(m)  # E: vander: x must be 1-d, not (3, 4)  [tyr-shape]
    reveal_type(F.local_response_norm(x, 2))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3], Literal[8]]"
    F.local_response_norm(m, 2)  # E: local_response_norm: expected a 3-d or larger input (N, C, *), got (3, 4)  [tyr-shape]
    F.instance_norm(x, weight=torch.ones(4))  # E: instance_norm: weight (4,) must be 1-d, of the input's 3 channels  [tyr-shape]
    F.instance_norm(torch.randn(2, 3, 1))  # E: instance_norm: with the input's statistics there must be more than one spatial element, got (2, 3, 1)  [tyr-shape]
