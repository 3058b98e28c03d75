"""`nn.init`, parameters, buffers and isinstance checks on modules."""

import math

import torch
from torch import nn


class Model(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.emb = nn.Embedding(100, 16)
        self.head = nn.Linear(16, 100, bias=False)
        self.head.weight = self.emb.weight
        self.register_buffer("mask", torch.tril(torch.ones(8, 8)))
        self.apply(self._init)

    @staticmethod
    def _init(module: nn.Module) -> None:
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)


model = Model()
count = sum(p.numel() for p in model.parameters())
for name, param in model.named_parameters():
    if name.endswith("weight"):
        nn.init.normal_(param, std=0.02 / math.sqrt(2))
