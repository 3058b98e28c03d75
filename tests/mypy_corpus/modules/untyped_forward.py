"""A module whose forward is not annotated: calls work as before (`Any`)."""

from typing import reveal_type

import torch
from torch import nn


class Legacy(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.lin = nn.Linear(4, 4)

    def forward(self, x):  # type: ignore[no-untyped-def]
        return self.lin(x)


reveal_type(Legacy()(torch.randn(2, 4)))  # N: Revealed type is "Any"
