"""A module call is `Any`, as torch types `Module.__call__`, wherever tyr knows nothing of the result's shape.

So code without shapes can use it as it always could: an optional loss from a typed
`forward`, an optional tensor passed to a layer, a list of outputs that later takes `None`.
"""

from typing import reveal_type

import torch
import torch.nn.functional as F
from torch import nn


class LM(nn.Module):
    def __init__(self, vocab: int, dim: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.head = nn.Linear(dim, vocab)

    def forward(self, idx: torch.Tensor, targets: torch.Tensor | None = None) -> tuple[torch.Tensor, torch.Tensor | None]:
        logits = self.head(self.embed(idx))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


def step(model: LM, idx: torch.Tensor, targets: torch.Tensor, memory: torch.Tensor | None) -> None:
    _, loss = model(idx, targets)
    reveal_type(loss)  # N: Revealed type is "Any"
    loss.backward()
    gate = nn.Linear(8, 8)
    gate(memory)
    outs = [gate(idx) for _ in range(3)]
    outs = outs + [None]
    model(idx, targets, "an argument forward does not take")
