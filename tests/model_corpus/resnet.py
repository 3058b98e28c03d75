"""ResNet with bottleneck blocks: strided 3x3 convs, projection shortcuts, stages built in a loop.

The base width is a type parameter (`ResNet[W, K]`); each block is generic in its input width,
its bottleneck width and its stride.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
I = TypeVar("I")  # noqa: E741 - input channels
P = TypeVar("P")  # bottleneck width (the block outputs 4*P)
S = TypeVar("S")  # stride
Wd = TypeVar("Wd")  # base width
K = TypeVar("K")  # classes


@checked
class Bottleneck(nn.Module, Generic[I, P, S]):
    expansion = 4

    def __init__(self, in_planes: Dim[I], planes: Dim[P], stride: Dim[S]) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, kernel_size=3, stride=stride, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * 4, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * 4)
        self.downsample = None
        if stride != 1 or in_planes != planes * 4:
            self.downsample = nn.Sequential(
                nn.Conv2d(in_planes, planes * 4, kernel_size=1, stride=stride, bias=False),
                nn.BatchNorm2d(planes * 4),
            )

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, "4*P", "H//S", "W//S"]:
        identity = x
        out = F.relu(self.bn1(self.conv1(x)))
        out = F.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        if self.downsample is not None:
            identity = self.downsample(x)
        out += identity
        return F.relu(out)


@checked
class ResNet(nn.Module, Generic[Wd, K]):
    def __init__(self, layers: list[int], width: Dim[Wd], num_classes: Dim[K]) -> None:
        super().__init__()
        self.in_planes = width
        self.conv1 = nn.Conv2d(3, width, kernel_size=7, stride=2, padding=3, bias=False)
        self.bn1 = nn.BatchNorm2d(width)
        self.maxpool = nn.MaxPool2d(kernel_size=3, stride=2, padding=1)
        self.layer1 = self._make_layer(width, layers[0], stride=1)
        self.layer2 = self._make_layer(2 * width, layers[1], stride=2)
        self.layer3 = self._make_layer(4 * width, layers[2], stride=2)
        self.layer4 = self._make_layer(8 * width, layers[3], stride=2)
        self.fc = nn.Linear(8 * width * Bottleneck.expansion, num_classes)

    def _make_layer(self, planes: int, blocks: int, stride: int) -> nn.Sequential:
        layers: list[nn.Module] = [Bottleneck(self.in_planes, planes, stride)]
        self.in_planes = planes * Bottleneck.expansion
        for _ in range(1, blocks):
            layers.append(Bottleneck(self.in_planes, planes, 1))
        return nn.Sequential(*layers)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, K]:
        x = self.maxpool(F.relu(self.bn1(self.conv1(x))))
        x = self.layer1(x)
        x = self.layer2(x)
        x = self.layer3(x)
        x = self.layer4(x)
        x = F.adaptive_avg_pool2d(x, 1)
        x = torch.flatten(x, 1)
        return self.fc(x)


def demo() -> None:
    model = ResNet([2, 1, 1, 1], width=8, num_classes=10)
    x = torch.randn(2, 3, 64, 64)
    logits = model(x)
    assert logits.shape == (2, 10)
    F.cross_entropy(logits, torch.tensor([1, 2])).backward()
    block = Bottleneck(16, 8, 2)
    assert block(torch.randn(1, 16, 8, 8)).shape == (1, 32, 4, 4)
