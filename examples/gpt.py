"""A nanoGPT-style transformer block, written the way nanoGPT writes it, with its shapes checked.

`forward` opens with `B, T, C = x.size()` (the locals shadow the type variables
of the signature, as in nanoGPT), splits the heads with `view` and `transpose`
and merges them back; mypy follows every shape from the annotations, and the
model's sizes come from its constructor (`Block[C]`).  Run it::

    python -m examples.gpt
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
C = TypeVar("C")  # embedding width
H = TypeVar("H")  # number of heads
V = TypeVar("V")  # vocabulary size


@dataclass(frozen=True, kw_only=True)
class Config:
    vocab_size: int = 65
    block_size: int = 64
    n_layer: int = 2
    n_head: int = 4
    n_embd: int = 64


@checked
class CausalSelfAttention(nn.Module, Generic[C, H]):
    def __init__(self, n_embd: Dim[C], n_head: Dim[H]) -> None:
        super().__init__()
        self.n_head = n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)  # q, k, v for all heads at once
        self.c_proj = nn.Linear(n_embd, n_embd)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        B, T, C = x.size()  # batch size, sequence length, embedding width
        q, k, v = self.c_attn(x).split(C, dim=2)
        nh = self.n_head
        q = q.view(B, T, nh, C // nh).transpose(1, 2)  # (B, nh, T, hs)
        k = k.view(B, T, nh, C // nh).transpose(1, 2)  # (B, nh, T, hs)
        v = v.view(B, T, nh, C // nh).transpose(1, 2)  # (B, nh, T, hs)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)  # (B, nh, T, hs)
        y = y.transpose(1, 2).contiguous().view(B, T, C)  # heads side by side again
        return self.c_proj(y)


@checked
class MLP(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C]) -> None:
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd)  # Linear[C, 4*C]
        self.c_proj = nn.Linear(4 * n_embd, n_embd)  # Linear[4*C, C]

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        return self.c_proj(F.gelu(self.c_fc(x)))


@checked
class Block(nn.Module, Generic[C, H]):
    def __init__(self, n_embd: Dim[C], n_head: Dim[H]) -> None:
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = MLP(n_embd)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        x = x + self.attn(self.ln_1(x))
        x = x + self.mlp(self.ln_2(x))
        return x


@checked
class GPT(nn.Module, Generic[V, C, H]):
    def __init__(self, config: Config, vocab_size: Dim[V], n_embd: Dim[C], n_head: Dim[H]) -> None:
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(vocab_size, n_embd)  # Embedding[V, C]
        self.wpe = nn.Embedding(config.block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head) for _ in range(config.n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)  # Linear[C, V]

    def forward(self, idx: Tensor[B, T]) -> Tensor[B, T, V]:
        b, t = idx.size()
        if t > self.config.block_size:
            raise ValueError(f"Cannot forward sequence of length {t}, block size is only {self.config.block_size}")
        pos = torch.arange(t, device=idx.device)  # (T,)
        x = self.wte(idx) + self.wpe(pos)  # (B, T, C) + (T, C)
        for block in self.blocks:
            x = block(x)
        return self.lm_head(self.ln_f(x))

    def loss(self, idx: Tensor[B, T], targets: Tensor[B, T]) -> Tensor[()]:
        logits = self(idx)
        b, t, v = logits.size()
        return F.cross_entropy(logits.view(b * t, v), targets.reshape(b * t))  # targets: a slice, not contiguous


def main() -> float:
    torch.manual_seed(0)
    config = Config()
    model = GPT(config, 65, 64, 4)  # GPT[65, 64, 4]
    idx: Tensor[2, 16] = torch.randint(0, config.vocab_size, (2, 16))
    loss = model.loss(idx[:, :-1], idx[:, 1:])
    loss.backward()
    return loss.item()


if __name__ == "__main__":
    print(f"loss: {main():.3f}")
