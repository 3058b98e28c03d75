"""A torch module's result in a function without shapes is torch's `Any`, even where tyr knows its
shape: a tensor there would have mypy check what the code does with it.

Found on litgpt (adapter.py): `y.view(1, -1, config.head_size)` with a `head_size: int | None`
was an argument error that plain mypy never gave, the `Linear`'s result being `Any` to it.
"""

import torch
from torch import nn


class Config:
    n_embd: int = 8
    head_size: int | None = None


class Adapter(nn.Module):
    def __init__(self, config: Config) -> None:
        super().__init__()
        self.config = config
        self.qkv = nn.Linear(config.n_embd, 3 * config.n_embd)
        self.proj = nn.Sequential(nn.Linear(4, 8), nn.GELU())

    def forward(self, prefix: torch.Tensor) -> torch.Tensor:
        prefix = prefix.reshape(1, 4, self.config.n_embd)
        y = self.qkv(prefix)
        return y.view(1, -1, self.config.head_size)

    def project(self) -> torch.Tensor:
        z = self.proj(torch.zeros(2, 4))
        return z.view(self.config.head_size, -1)

    def mypy_own_error(self, x: torch.Tensor) -> int:
        return x.view(2, self.config.head_size)
