"""A two-layer perceptron on flattened 28x28 images: every shape is an annotation, checked twice.

mypy (with tyr's plugin) follows `x` through `fc1`, `relu` and `fc2` and would
reject a `fc2` built for 128 features; `@checked` checks the same annotations
when `forward` is called.  Run it (a few steps of SGD on random data)::

    python -m examples.mlp
"""

from __future__ import annotations

from typing import TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Tensor, checked

B = TypeVar("B")


@checked
class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(784, 256)  # Linear[784, 256]
        self.fc2 = nn.Linear(256, 10)  # Linear[256, 10]

    def forward(self, x: Tensor[B, 784]) -> Tensor[B, 10]:
        return self.fc2(F.relu(self.fc1(x)))


def main(steps: int = 5) -> float:
    torch.manual_seed(0)
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    images: Tensor[64, 784] = torch.randn(64, 784)
    labels: Tensor[64] = torch.randint(0, 10, (64,))
    loss = torch.zeros(())
    for _ in range(steps):
        logits = model(images)  # Tensor[64, 10]
        loss = F.cross_entropy(logits, labels)  # Tensor[()]
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    return loss.item()


if __name__ == "__main__":
    print(f"loss after 5 steps: {main():.3f}")
