"""T5: attention written with `torch.einsum`, bucketed relative position bias, RMS LayerNorm, cross-attention.

An encoder layer and a decoder layer (causal self-attention, then cross-attention to the
encoder).  Sizes are type parameters bound by `Dim` arguments.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
Q = TypeVar("Q")  # query length
K = TypeVar("K")  # key length
D = TypeVar("D")  # model width
H = TypeVar("H")  # heads
Dkv = TypeVar("Dkv")  # width of a head
V = TypeVar("V")


def relative_position_bucket(
    relative_position: Tensor[Q, K], bidirectional: bool, num_buckets: int = 32, max_distance: int = 128
) -> Tensor[Q, K]:
    """Half the buckets for exact small distances, the rest log-spaced up to max_distance."""
    buckets = torch.zeros_like(relative_position)
    if bidirectional:
        num_buckets //= 2
        buckets += (relative_position > 0).long() * num_buckets
        relative_position = relative_position.abs()
    else:
        relative_position = -torch.clamp(relative_position, max=0)
    max_exact = num_buckets // 2
    is_small = relative_position < max_exact
    large = max_exact + (
        torch.log(relative_position.float() / max_exact) / math.log(max_distance / max_exact) * (num_buckets - max_exact)
    ).long()
    large = torch.clamp(large, max=num_buckets - 1)
    return buckets + torch.where(is_small, relative_position, large)


@checked
class T5LayerNorm(nn.Module, Generic[D]):
    """Scale only, no mean subtraction, no bias."""

    def __init__(self, dim: Dim[D], eps: float = 1e-6) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: Tensor[B, Q, D]) -> Tensor[B, Q, D]:
        variance = x.pow(2).mean(-1, keepdim=True)
        return self.weight * (x * torch.rsqrt(variance + self.eps))


@checked
class T5Attention(nn.Module, Generic[D, H, Dkv]):
    def __init__(self, d_model: Dim[D], n_heads: Dim[H], d_kv: Dim[Dkv], relative_bias: bool, causal: bool) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.d_kv = d_kv
        self.causal = causal
        self.q = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.k = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.v = nn.Linear(d_model, n_heads * d_kv, bias=False)
        self.o = nn.Linear(n_heads * d_kv, d_model, bias=False)
        self.relative_attention_bias = nn.Embedding(32, n_heads) if relative_bias else None

    def compute_bias(self, q_len: Dim[Q], k_len: Dim[K]) -> Tensor[1, H, Q, K]:
        context = torch.arange(q_len)[:, None]
        memory = torch.arange(k_len)[None, :]
        buckets = relative_position_bucket(memory - context, bidirectional=not self.causal)
        assert self.relative_attention_bias is not None
        values = self.relative_attention_bias(buckets)  # (Q, K, H)
        return values.permute(2, 0, 1).unsqueeze(0)

    def forward(self, x: Tensor[B, Q, D], kv: Tensor[B, K, D], mask: Tensor[B, K]) -> Tensor[B, Q, D]:
        b, q_len, _ = x.shape
        k_len = kv.shape[1]
        q = self.q(x).view(b, q_len, self.n_heads, self.d_kv)
        k = self.k(kv).view(b, k_len, self.n_heads, self.d_kv)
        v = self.v(kv).view(b, k_len, self.n_heads, self.d_kv)
        scores = torch.einsum("bqhd,bkhd->bhqk", q, k)  # T5 does not scale by sqrt(d)
        if self.relative_attention_bias is not None:
            scores = scores + self.compute_bias(q_len, k_len)
        scores = scores.masked_fill(~mask[:, None, None, :], float("-inf"))
        if self.causal:
            causal = torch.ones(q_len, k_len, dtype=torch.bool).tril()
            scores = scores.masked_fill(~causal, float("-inf"))
        attn = F.softmax(scores.float(), dim=-1).type_as(scores)
        out = torch.einsum("bhqk,bkhd->bqhd", attn, v).reshape(b, q_len, -1)
        return self.o(out)


@checked
class FeedForward(nn.Module, Generic[D]):
    def __init__(self, d_model: Dim[D], d_ff: int) -> None:
        super().__init__()
        self.wi = nn.Linear(d_model, d_ff, bias=False)
        self.wo = nn.Linear(d_ff, d_model, bias=False)

    def forward(self, x: Tensor[B, Q, D]) -> Tensor[B, Q, D]:
        return self.wo(F.relu(self.wi(x)))


@checked
class T5(nn.Module, Generic[V, D, H, Dkv]):
    def __init__(self, vocab: Dim[V], d_model: Dim[D], n_heads: Dim[H], d_kv: Dim[Dkv], d_ff: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.enc_norm1, self.enc_norm2 = T5LayerNorm(d_model), T5LayerNorm(d_model)
        self.enc_attn = T5Attention(d_model, n_heads, d_kv, relative_bias=True, causal=False)
        self.enc_ff = FeedForward(d_model, d_ff)
        self.dec_norm1, self.dec_norm2, self.dec_norm3 = T5LayerNorm(d_model), T5LayerNorm(d_model), T5LayerNorm(d_model)
        self.dec_self = T5Attention(d_model, n_heads, d_kv, relative_bias=True, causal=True)
        self.dec_cross = T5Attention(d_model, n_heads, d_kv, relative_bias=False, causal=False)
        self.dec_ff = FeedForward(d_model, d_ff)
        self.final_norm = T5LayerNorm(d_model)

    def encode(self, src: Tensor[B, K], src_mask: Tensor[B, K]) -> Tensor[B, K, D]:
        x = self.embed(src)
        h = self.enc_norm1(x)
        x = x + self.enc_attn(h, h, src_mask)
        return x + self.enc_ff(self.enc_norm2(x))

    def forward(self, src: Tensor[B, K], src_mask: Tensor[B, K], tgt: Tensor[B, Q]) -> Tensor[B, Q, V]:
        memory = self.encode(src, src_mask)
        y = self.embed(tgt)
        h = self.dec_norm1(y)
        y = y + self.dec_self(h, h, torch.ones_like(tgt, dtype=torch.bool))
        y = y + self.dec_cross(self.dec_norm2(y), memory, src_mask)
        y = y + self.dec_ff(self.dec_norm3(y))
        y = self.final_norm(y) * self.embed.embedding_dim**-0.5
        return y @ self.embed.weight.T  # tied output embedding


def demo() -> None:
    model = T5(vocab=40, d_model=32, n_heads=4, d_kv=8, d_ff=64)
    src = torch.randint(0, 40, (2, 7))
    src_mask = torch.ones(2, 7, dtype=torch.bool)
    src_mask[1, 5:] = False
    tgt = torch.randint(0, 40, (2, 5))
    logits = model(src, src_mask, tgt)
    assert logits.shape == (2, 5, 40)
    F.cross_entropy(logits.flatten(0, 1), tgt.flatten()).backward()
