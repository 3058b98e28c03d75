# A class generic in D normalises the ceiling -(-d // 16) (Mamba's dt_rank) and d - d // 2 to D//16 and
# D//2, which assume D a multiple of 16 and of 2 (SHAPES.md §6).  Built with sizes that break those facts,
# the written form's value is not the normal form's (at 24 the ceiling is 2, D//16 is 1): unknown, not wrong.
from typing import Generic, TypeVar

import torch
from torch import nn

from tyr import Dim, Tensor

D = TypeVar("D")


class Projections(nn.Module, Generic[D]):
    def __init__(self, d_model: Dim[D]) -> None:
        super().__init__()
        self.dt_rank = -(-d_model // 16)
        self.x_proj = nn.Linear(d_model, self.dt_rank)
        self.larger_half = nn.Linear(d_model, d_model - d_model // 2)


def built() -> None:
    m = Projections(24)
    reveal_type(m.x_proj)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[24], Any]"
    y = m.x_proj(torch.randn(3, 24))
    w: Tensor[3, 2] = y
    reveal_type(m.larger_half)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[24], Literal[12]]"
    odd = Projections(7)
    reveal_type(odd.larger_half)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[7], Any]"
    exact = Projections(32)
    reveal_type(exact.x_proj)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[32], Literal[2]]"
