"""Whisper: a conv1d stem (the second conv has stride 2) over log-mel frames, sinusoidal positions,
a transformer encoder, and a decoder with cross-attention and tied output embedding.

Heads are split with starred sizes, `q.view(*q.shape[:2], self.n_head, -1)`, as Whisper does.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")  # source (audio) positions
M = TypeVar("M")  # mel bins
Nc = TypeVar("Nc")  # audio context: positions after the stride-2 conv
D = TypeVar("D")
V = TypeVar("V")
L = TypeVar("L")  # length of a sinusoid table


def sinusoids(length: Dim[L], channels: Dim[D], max_timescale: float = 10000.0) -> Tensor[L, D]:
    log_timescale_increment = math.log(max_timescale) / (channels // 2 - 1)
    inv_timescales = torch.exp(-log_timescale_increment * torch.arange(channels // 2))
    scaled_time = torch.arange(length)[:, None] * inv_timescales[None, :]
    return torch.cat([torch.sin(scaled_time), torch.cos(scaled_time)], dim=1)


@checked
class MultiHeadAttention(nn.Module, Generic[D]):
    def __init__(self, n_state: Dim[D], n_head: int) -> None:
        super().__init__()
        self.n_head = n_head
        self.query = nn.Linear(n_state, n_state)
        self.key = nn.Linear(n_state, n_state, bias=False)
        self.value = nn.Linear(n_state, n_state)
        self.out = nn.Linear(n_state, n_state)

    def forward(self, x: Tensor[B, T, D], xa: Tensor[B, S, D] | None = None, causal: bool = False) -> Tensor[B, T, D]:
        q = self.query(x)
        k = self.key(x if xa is None else xa)
        v = self.value(x if xa is None else xa)
        q = q.view(*q.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
        k = k.view(*k.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
        v = v.view(*v.shape[:2], self.n_head, -1).permute(0, 2, 1, 3)
        wv = F.scaled_dot_product_attention(q, k, v, is_causal=causal)
        return self.out(wv.permute(0, 2, 1, 3).flatten(start_dim=2))


@checked
class ResidualAttentionBlock(nn.Module, Generic[D]):
    def __init__(self, n_state: Dim[D], n_head: int, cross_attention: bool = False) -> None:
        super().__init__()
        self.attn = MultiHeadAttention(n_state, n_head)
        self.attn_ln = nn.LayerNorm(n_state)
        self.cross_attn = MultiHeadAttention(n_state, n_head) if cross_attention else None
        self.cross_attn_ln = nn.LayerNorm(n_state) if cross_attention else None
        self.mlp = nn.Sequential(nn.Linear(n_state, 4 * n_state), nn.GELU(), nn.Linear(4 * n_state, n_state))
        self.mlp_ln = nn.LayerNorm(n_state)

    def forward(self, x: Tensor[B, T, D], xa: Tensor[B, S, D] | None = None, causal: bool = False) -> Tensor[B, T, D]:
        x = x + self.attn(self.attn_ln(x), causal=causal)
        if self.cross_attn is not None and self.cross_attn_ln is not None:
            x = x + self.cross_attn(self.cross_attn_ln(x), xa)
        return x + self.mlp(self.mlp_ln(x))


@checked
class AudioEncoder(nn.Module, Generic[M, Nc, D]):
    positional_embedding: Tensor[Nc, D]

    def __init__(self, n_mels: Dim[M], n_ctx: Dim[Nc], n_state: Dim[D], n_head: int, n_layer: int) -> None:
        super().__init__()
        self.conv1 = nn.Conv1d(n_mels, n_state, kernel_size=3, padding=1)
        self.conv2 = nn.Conv1d(n_state, n_state, kernel_size=3, stride=2, padding=1)
        self.register_buffer("positional_embedding", sinusoids(n_ctx, n_state))
        self.blocks = nn.ModuleList([ResidualAttentionBlock(n_state, n_head) for _ in range(n_layer)])
        self.ln_post = nn.LayerNorm(n_state)

    def forward(self, x: Tensor[B, M, "2*Nc"]) -> Tensor[B, Nc, D]:
        x = F.gelu(self.conv1(x))
        x = F.gelu(self.conv2(x))
        x = x.permute(0, 2, 1)  # (B, Nc, D)
        x = (x + self.positional_embedding).to(x.dtype)
        for block in self.blocks:
            x = block(x)
        return self.ln_post(x)


@checked
class TextDecoder(nn.Module, Generic[V, D]):
    def __init__(self, n_vocab: Dim[V], n_ctx: int, n_state: Dim[D], n_head: int, n_layer: int) -> None:
        super().__init__()
        self.token_embedding = nn.Embedding(n_vocab, n_state)
        self.positional_embedding = nn.Parameter(torch.empty(n_ctx, n_state))
        self.blocks = nn.ModuleList(
            [ResidualAttentionBlock(n_state, n_head, cross_attention=True) for _ in range(n_layer)]
        )
        self.ln = nn.LayerNorm(n_state)
        nn.init.normal_(self.positional_embedding, std=0.01)

    def forward(self, tokens: Tensor[B, T], xa: Tensor[B, S, D], offset: int = 0) -> Tensor[B, T, V]:
        x = self.token_embedding(tokens) + self.positional_embedding[offset : offset + tokens.shape[-1]]
        for block in self.blocks:
            x = block(x, xa, causal=True)
        x = self.ln(x)
        return (x @ torch.transpose(self.token_embedding.weight, 0, 1)).float()


def demo() -> None:
    encoder = AudioEncoder(n_mels=16, n_ctx=10, n_state=32, n_head=4, n_layer=2)
    decoder = TextDecoder(n_vocab=50, n_ctx=16, n_state=32, n_head=4, n_layer=2)
    mel = torch.randn(2, 16, 20)  # 20 frames -> 10 audio positions
    audio = encoder(mel)
    assert audio.shape == (2, 10, 32)
    tokens = torch.randint(0, 50, (2, 6))
    logits = decoder(tokens[:, :-1], audio)
    F.cross_entropy(logits.transpose(1, 2), tokens[:, 1:]).backward()
