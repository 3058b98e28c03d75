"""Attributes assigned a module's size or a tensor's (`self.dim = self.fc.out_features`,
`self.n = x.size(1)`) and assigned again elsewhere: torch types them `int`, so no assignment is
an error (tyr reads them as sizes only where the class assigns them once)."""

from __future__ import annotations

import torch
from torch import nn


class Head(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc = nn.Linear(512, 10)
        self.dim = self.fc.out_features
        self.steps = torch.zeros(3, 4).size(1)
        self.last = torch.zeros(3, 4).shape[0]

    def reset(self, classes: int) -> None:
        self.dim = classes
        self.steps = classes
        self.last = classes + 1
        self.fc = nn.Linear(self.fc.in_features, classes)
        self.fc.in_features = "512"  # plain mypy's own error, so that this program is checked
