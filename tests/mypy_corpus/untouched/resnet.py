"""A ResNet-style network written in plain PyTorch (no tyr annotations) checks as it does without tyr.

A module call is `Any`, as torch types it, so strict mypy's complaint about returning one stays.
"""

import torch
import torch.nn.functional as F
from torch import nn


class BasicBlock(nn.Module):
    def __init__(self, inplanes: int, planes: int, stride: int = 1) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut: nn.Module = nn.Identity()
        if stride != 1 or inplanes != planes:
            self.shortcut = nn.Sequential(nn.Conv2d(inplanes, planes, 1, stride=stride, bias=False), nn.BatchNorm2d(planes))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        out = out + self.shortcut(x)
        return F.relu(out)


class ResNet(nn.Module):
    def __init__(self, blocks: list[int], classes: int = 10) -> None:
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 64, 3, padding=1, bias=False), nn.BatchNorm2d(64), nn.ReLU(inplace=True))
        layers: list[nn.Module] = []
        inplanes = 64
        for i, count in enumerate(blocks):
            planes = 64 * 2**i
            for j in range(count):
                layers.append(BasicBlock(inplanes, planes, stride=2 if j == 0 and i > 0 else 1))
                inplanes = planes
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(inplanes, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.layers(self.stem(x))
        x = torch.flatten(self.pool(x), 1)
        return self.fc(x)  # E: Returning Any from function declared to return  [no-any-return]


model = ResNet([2, 2, 2, 2])
logits = model(torch.randn(2, 3, 32, 32))
loss = F.cross_entropy(logits, torch.randint(0, 10, (2,)))
loss.backward()
