"""A small convolutional classifier for 3x32x32 images (CIFAR-sized), with its shapes checked.

mypy works out every spatial size: a 3x3 convolution with padding 1 keeps 32x32,
each 2x2 max-pool halves it, so the classifier head sees `32 * 8 * 8` features.
Change a padding or a pool and the `nn.Linear` no longer fits: mypy says where.
Run it (one forward and backward pass on random data)::

    python -m examples.cnn
"""

from __future__ import annotations

from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor, checked

B = TypeVar("B")


@checked
class ConvNet(nn.Module):
    def __init__(self, classes: int = 10) -> None:
        super().__init__()
        self.conv1 = nn.Conv2d(3, 16, 3, padding=1)  # (B, 3, 32, 32) -> (B, 16, 32, 32)
        self.conv2 = nn.Conv2d(16, 32, 3, padding=1)  # (B, 16, 16, 16) -> (B, 32, 16, 16)
        self.pool = nn.MaxPool2d(2)  # halves height and width
        self.norm = nn.BatchNorm2d(32)
        self.head = nn.Sequential(nn.Flatten(), nn.Linear(32 * 8 * 8, 128), nn.ReLU(), nn.Dropout(0.1))
        self.out = nn.Linear(128, 10)

    def forward(self, x: Tensor[B, 3, 32, 32]) -> Tensor[B, 10]:
        h = self.pool(F.relu(self.conv1(x)))  # (B, 16, 16, 16)
        h = self.pool(F.relu(self.norm(self.conv2(h))))  # (B, 32, 8, 8)
        return self.out(self.head(h))


def main() -> float:
    torch.manual_seed(0)
    model = ConvNet()
    images: Tensor[8, 3, 32, 32] = torch.randn(8, 3, 32, 32)
    labels: Tensor[8] = torch.randint(0, 10, (8,))
    loss = F.cross_entropy(model(images), labels)
    loss.backward()
    return loss.item()


if __name__ == "__main__":
    print(f"loss: {main():.3f}")
