"""A nanochat / modded-nanogpt style GPT: rotary embeddings, QK-norm, GQA, ReLU², soft-capped logits, a KV cache.

Sizes are the model's type parameters (`GPT[V, C, H, KV]`), bound by `Dim` constructor arguments.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")  # positions the rotary tables cover
V = TypeVar("V")  # vocabulary
C = TypeVar("C")  # model width
H = TypeVar("H")  # query heads
KV = TypeVar("KV")  # key/value heads (GQA: fewer than H)
Hd = TypeVar("Hd")  # head width


def norm(x: Tensor[B, T, H, Hd]) -> Tensor[B, T, H, Hd]:
    """RMSNorm without weights (QK-norm and the block norms)."""
    return F.rms_norm(x, (x.size(-1),))


def rotary_cos_sin(seq_len: Dim[S], head_dim: Dim[Hd], base: float = 10000.0) -> tuple[
    Tensor[1, S, 1, "Hd//2"], Tensor[1, S, 1, "Hd//2"]
]:
    channels = torch.arange(0, head_dim, 2, dtype=torch.float32)  # (Hd//2,)
    inv_freq = 1.0 / (base ** (channels / head_dim))
    t = torch.arange(seq_len, dtype=torch.float32)
    freqs = torch.outer(t, inv_freq)  # (S, Hd//2)
    cos, sin = freqs.cos(), freqs.sin()
    return cos[None, :, None, :], sin[None, :, None, :]


def apply_rotary_emb(
    x: Tensor[B, T, H, Hd], cos: Tensor[1, T, 1, "Hd//2"], sin: Tensor[1, T, 1, "Hd//2"]
) -> Tensor[B, T, H, Hd]:
    d = x.shape[3] // 2
    x1, x2 = x[..., :d], x[..., d:]  # the two halves of each head
    y1 = x1 * cos + x2 * sin
    y2 = x1 * (-sin) + x2 * cos
    return torch.cat([y1, y2], 3)


class KVCache(Generic[KV, Hd]):
    """Keys and values of every layer, for `max_len` positions; `pos` is how many are filled."""

    def __init__(self, n_layer: int, batch: int, n_kv_head: Dim[KV], head_dim: Dim[Hd], max_len: int) -> None:
        self.k = torch.zeros(n_layer, batch, n_kv_head, max_len, head_dim)
        self.v = torch.zeros(n_layer, batch, n_kv_head, max_len, head_dim)
        self.pos = 0

    def insert(
        self, layer: int, k: Tensor[B, KV, T, Hd], v: Tensor[B, KV, T, Hd]
    ) -> tuple[Tensor[B, KV, Any, Hd], Tensor[B, KV, Any, Hd]]:
        t = k.size(2)
        self.k[layer, :, :, self.pos : self.pos + t] = k
        self.v[layer, :, :, self.pos : self.pos + t] = v
        end = self.pos + t
        if layer == self.k.size(0) - 1:
            self.pos = end
        return self.k[layer, :, :, :end], self.v[layer, :, :, :end]


@checked
class CausalSelfAttention(nn.Module, Generic[C, H, KV]):
    def __init__(self, layer: int, n_embd: Dim[C], n_head: Dim[H], n_kv_head: Dim[KV]) -> None:
        super().__init__()
        self.layer = layer
        self.n_head = n_head
        self.n_kv_head = n_kv_head
        self.head_dim = n_embd // n_head
        self.c_q = nn.Linear(n_embd, n_head * self.head_dim, bias=False)
        self.c_k = nn.Linear(n_embd, n_kv_head * self.head_dim, bias=False)
        self.c_v = nn.Linear(n_embd, n_kv_head * self.head_dim, bias=False)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=False)

    def forward(
        self,
        x: Tensor[B, T, C],
        cos: Tensor[1, T, 1, Any],
        sin: Tensor[1, T, 1, Any],
        cache: KVCache[KV, Any] | None = None,
    ) -> Tensor[B, T, C]:
        B, T, C = x.size()
        q = self.c_q(x).view(B, T, self.n_head, self.head_dim)
        k = self.c_k(x).view(B, T, self.n_kv_head, self.head_dim)
        v = self.c_v(x).view(B, T, self.n_kv_head, self.head_dim)
        q, k = apply_rotary_emb(q, cos, sin), apply_rotary_emb(k, cos, sin)
        q, k = norm(q), norm(k)  # QK-norm
        q, k, v = q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2)  # (B, heads, T, Hd)
        if cache is None:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        else:
            k, v = cache.insert(self.layer, k, v)
            if T == 1:  # one new token attends to everything cached
                y = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
            else:  # prefill of an empty cache
                y = F.scaled_dot_product_attention(q, k, v, is_causal=True, enable_gqa=True)
        y = y.transpose(1, 2).contiguous().view(B, T, -1)
        return self.c_proj(y)


@checked
class MLP(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C]) -> None:
        super().__init__()
        self.c_fc = nn.Linear(n_embd, 4 * n_embd, bias=False)
        self.c_proj = nn.Linear(4 * n_embd, n_embd, bias=False)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        x = self.c_fc(x)
        x = F.relu(x).square()  # ReLU²
        return self.c_proj(x)


@checked
class Block(nn.Module, Generic[C, H, KV]):
    def __init__(self, layer: int, n_embd: Dim[C], n_head: Dim[H], n_kv_head: Dim[KV]) -> None:
        super().__init__()
        self.attn = CausalSelfAttention(layer, n_embd, n_head, n_kv_head)
        self.mlp = MLP(n_embd)

    def forward(
        self, x: Tensor[B, T, C], cos: Tensor[1, T, 1, Any], sin: Tensor[1, T, 1, Any], cache: KVCache[KV, Any] | None
    ) -> Tensor[B, T, C]:
        x = x + self.attn(F.rms_norm(x, (x.size(-1),)), cos, sin, cache)
        x = x + self.mlp(F.rms_norm(x, (x.size(-1),)))
        return x


@checked
class GPT(nn.Module, Generic[V, C, H, KV]):
    cos: Tensor[1, Any, 1, Any]
    sin: Tensor[1, Any, 1, Any]

    def __init__(
        self, vocab_size: Dim[V], n_layer: int, n_embd: Dim[C], n_head: Dim[H], n_kv_head: Dim[KV], max_len: int
    ) -> None:
        super().__init__()
        self.n_kv_head = n_kv_head
        self.head_dim = n_embd // n_head
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.blocks = nn.ModuleList([Block(i, n_embd, n_head, n_kv_head) for i in range(n_layer)])
        self.lm_head = nn.Linear(n_embd, vocab_size, bias=False)
        cos, sin = rotary_cos_sin(10 * max_len, self.head_dim)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.softcap = 15.0

    def forward(self, idx: Tensor[B, T], cache: KVCache[KV, Any] | None = None) -> Tensor[B, T, V]:
        B, T = idx.size()
        t0 = 0 if cache is None else cache.pos
        cos, sin = self.cos[:, t0 : t0 + T], self.sin[:, t0 : t0 + T]
        x = self.wte(idx)
        x = F.rms_norm(x, (x.size(-1),))
        for block in self.blocks:
            x = block(x, cos, sin, cache)
        x = F.rms_norm(x, (x.size(-1),))
        logits = self.lm_head(x).float()
        logits = self.softcap * torch.tanh(logits / self.softcap)  # soft-capped logits
        return logits

    def loss(self, idx: Tensor[B, T], targets: Tensor[B, T]) -> Tensor[()]:
        logits = self(idx)
        return F.cross_entropy(logits.view(-1, logits.size(-1)), targets.reshape(-1))

    @torch.no_grad()
    def generate(self, tokens: Tensor[B, T], max_new_tokens: int) -> Tensor[B, Any]:
        B, T = tokens.size()
        cache = KVCache(len(self.blocks), B, self.n_kv_head, self.head_dim, T + max_new_tokens)
        logits = self(tokens, cache)  # prefill
        out = tokens
        for _ in range(max_new_tokens):
            next_token = logits[:, -1, :].argmax(dim=-1, keepdim=True)  # (B, 1), greedy
            out = torch.cat([out, next_token], dim=1)
            logits = self(next_token, cache)
        return out


def demo() -> None:
    model = GPT(vocab_size=50, n_layer=2, n_embd=32, n_head=4, n_kv_head=2, max_len=16)
    idx = torch.randint(0, 50, (2, 9))
    loss = model.loss(idx[:, :-1], idx[:, 1:])
    loss.backward()
    out = model.generate(idx[:, :4], max_new_tokens=5)
    assert out.shape == (2, 9)
    full = model(out[:, :-1])  # the cached decoding agrees with a full forward
    assert torch.equal(full[:, 3:].argmax(-1), out[:, 4:])
