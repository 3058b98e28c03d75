"""Recurrent layers, `nn.Bilinear`, adaptive pools with a `None` size, and ops whose rules are new, in
unannotated code: it checks as it did (torch's `Any` stays `Any` where torch declares it).

Each function has plain mypy's own error (so tests/test_adoption.py compares something); tyr must
report it on the same line and add none.
"""

from typing import Any

import torch
import torch.nn.functional as F
from torch import nn


class Config:
    hidden: int = 8
    head_size: int | None = None


class Tagger(nn.Module):
    """A tagger as tutorials write one: sizes from a config, states passed around as tuples."""

    def __init__(self, cfg: Config, vocab: int, layers: Any) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(vocab, cfg.hidden)
        self.lstm = nn.LSTM(cfg.hidden, cfg.hidden // 2, num_layers=layers, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(*[cfg.hidden, cfg.hidden])
        self.rnn = nn.RNN(cfg.hidden, cfg.hidden, nonlinearity="relu")
        self.pair = nn.Bilinear(cfg.hidden, cfg.hidden, 1)
        self.pool = nn.AdaptiveAvgPool2d((1, None))

    def forward(self, tokens: torch.Tensor, state: tuple[torch.Tensor, torch.Tensor] | None = None) -> torch.Tensor:
        x = self.embed(tokens)
        out, (h, c) = self.lstm(x, state)
        y, _ = self.gru(out, None)
        z, hn = self.rnn(y)
        score = self.pair(z, z).squeeze(-1)
        pooled = self.pool(x[None]).view(self.cfg.head_size, -1)
        return score + pooled.sum() + h.sum() + c.sum() + hn.sum() + self.cfg.nope  # plain mypy's error


def rare_ops(x: torch.Tensor, n: int, size: int | None) -> torch.Tensor:
    """Results torch declares `Any` stay `Any` in code without shapes, even where tyr knows the shape."""
    u = torch.ones(4).unique()
    blocks = torch.block_diag(torch.ones(2, 3), torch.ones(4))
    values, inverse = x.unique(dim=0, return_inverse=True)
    pairs = torch.combinations(torch.arange(n), 2)
    grid = torch.cartesian_prod(torch.arange(3), torch.arange(n))
    area = torch.trapezoid(x) + torch.cumulative_trapezoid(x).sum()
    shuffled = F.channel_shuffle(x, n)
    kl = F.kl_div(x.log_softmax(-1), x.softmax(-1), reduction="batchmean")
    y = x.clone()
    y.resize_(n)
    wide = torch.broadcast_to(y, (2, n))
    parts = [u.view(size), blocks.view(size), values.view(size), inverse, pairs, grid, area, shuffled, kl, wide]
    return torch.cat(parts) + x.take(torch.zeros(1, dtype=torch.long)) + x.trace() + torch.inner(x, x) + "no"
