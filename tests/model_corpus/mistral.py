"""A Mistral / Llama-3 style decoder (mistral-src / llama3 reference style): GQA by repeat_interleave,
rotary by cos/sin + rotate_half, sliding-window causal mask with triu/tril, a preallocated KV cache
updated in place, and a sampling generate loop (temperature, top-k, multinomial, cat).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, Optional, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
T = TypeVar("T")
S = TypeVar("S")  # total key length (cache + new)
D = TypeVar("D")
H = TypeVar("H")  # query heads
KV = TypeVar("KV")  # kv heads
Hd = TypeVar("Hd")  # head dim
F_ = TypeVar("F_")  # ffn hidden
V = TypeVar("V")
MB = TypeVar("MB")  # max batch
MS = TypeVar("MS")  # max seq len


@dataclass
class ModelArgs:
    dim: int = 64
    n_layers: int = 2
    head_dim: int = 16
    hidden_dim: int = 128
    n_heads: int = 4
    n_kv_heads: int = 2
    sliding_window: int = 6
    norm_eps: float = 1e-5
    vocab_size: int = 100
    max_batch_size: int = 3
    max_seq_len: int = 32
    rope_theta: float = 10000.0


def rotate_half(x: Tensor[B, H, T, Hd]) -> Tensor[B, H, T, Hd]:
    x1 = x[..., : x.shape[-1] // 2]
    x2 = x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary_pos_emb(
    q: Tensor[B, H, T, Hd], k: Tensor[B, KV, T, Hd], cos: Tensor[T, Hd], sin: Tensor[T, Hd]
) -> tuple[Tensor[B, H, T, Hd], Tensor[B, KV, T, Hd]]:
    cos = cos[None, None, :, :]
    sin = sin.unsqueeze(0).unsqueeze(0)
    q_embed = (q * cos) + (rotate_half(q) * sin)
    k_embed = (k * cos) + (rotate_half(k) * sin)
    return q_embed, k_embed


@checked
class RotaryEmbedding(nn.Module, Generic[Hd, MS]):
    cos_cached: Tensor[MS, Hd]
    sin_cached: Tensor[MS, Hd]

    def __init__(self, dim: Dim[Hd], max_pos: Dim[MS], base: float = 10000.0) -> None:
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, dim, 2).float() / dim))
        t = torch.arange(max_pos, dtype=torch.float32)
        freqs = torch.einsum("i,j->ij", t, inv_freq)
        emb = torch.cat((freqs, freqs), dim=-1)
        self.register_buffer("cos_cached", emb.cos(), persistent=False)
        self.register_buffer("sin_cached", emb.sin(), persistent=False)

    def forward(self, start_pos: int, seqlen: Dim[T]) -> tuple[Tensor[T, Hd], Tensor[T, Hd]]:
        cos = self.cos_cached[start_pos : start_pos + seqlen]
        sin = self.sin_cached[start_pos : start_pos + seqlen]
        return cos, sin


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6) -> None:
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def _norm(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        output = self._norm(x.float()).type_as(x)
        return output * self.weight


def sliding_window_mask(seqlen: Dim[T], window: int, device: torch.device) -> Tensor[T, T]:
    tensor = torch.full((seqlen, seqlen), fill_value=1.0, device=device)
    mask = torch.tril(tensor, diagonal=0)
    mask = torch.triu(mask, diagonal=-window)
    mask = torch.log(mask)
    return mask


def cached_mask(seqlen: Dim[T], start_pos: Dim[S], window: int) -> Tensor[T, "S+T"]:
    mask = torch.full((seqlen, seqlen), float("-inf"))
    mask = torch.triu(mask, diagonal=1)
    mask = torch.hstack([torch.zeros((seqlen, start_pos)), mask])
    band = torch.ones(seqlen, start_pos + seqlen, dtype=torch.bool).tril(diagonal=start_pos - window)
    mask = mask.masked_fill(band, float("-inf"))
    return mask


@checked
class Attention(nn.Module, Generic[D, H, KV, Hd, MB, MS]):
    cache_k: Tensor[MB, MS, KV, Hd]
    cache_v: Tensor[MB, MS, KV, Hd]

    def __init__(
        self, dim: Dim[D], n_heads: Dim[H], n_kv_heads: Dim[KV], head_dim: Dim[Hd], max_batch: Dim[MB], max_seq: Dim[MS]
    ) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = head_dim
        self.repeats = n_heads // n_kv_heads
        self.scale = head_dim**-0.5
        self.wq = nn.Linear(dim, n_heads * head_dim, bias=False)
        self.wk = nn.Linear(dim, n_kv_heads * head_dim, bias=False)
        self.wv = nn.Linear(dim, n_kv_heads * head_dim, bias=False)
        self.wo = nn.Linear(n_heads * head_dim, dim, bias=False)
        self.register_buffer("cache_k", torch.zeros(max_batch, max_seq, n_kv_heads, head_dim), persistent=False)
        self.register_buffer("cache_v", torch.zeros(max_batch, max_seq, n_kv_heads, head_dim), persistent=False)

    def forward(
        self,
        x: Tensor[B, T, D],
        start_pos: int,
        cos: Tensor[T, Hd],
        sin: Tensor[T, Hd],
        mask: Optional[Tensor],
    ) -> Tensor[B, T, D]:
        bsz, seqlen, _ = x.shape
        xq, xk, xv = self.wq(x), self.wk(x), self.wv(x)
        xq = xq.view(bsz, seqlen, self.n_heads, self.head_dim)
        xk = xk.view(bsz, seqlen, self.n_kv_heads, self.head_dim)
        xv = xv.view(bsz, seqlen, self.n_kv_heads, self.head_dim)

        q, k = apply_rotary_pos_emb(xq.transpose(1, 2), xk.transpose(1, 2), cos, sin)
        xq, xk = q.transpose(1, 2), k.transpose(1, 2)

        self.cache_k[:bsz, start_pos : start_pos + seqlen] = xk
        self.cache_v[:bsz, start_pos : start_pos + seqlen] = xv
        keys = self.cache_k[:bsz, : start_pos + seqlen]
        values = self.cache_v[:bsz, : start_pos + seqlen]

        keys = torch.repeat_interleave(keys, repeats=self.repeats, dim=2)
        values = values.repeat_interleave(self.repeats, dim=2)

        xq = xq.transpose(1, 2)
        keys = keys.transpose(1, 2)
        values = values.transpose(1, 2)
        scores = torch.matmul(xq, keys.transpose(2, 3)) * self.scale
        if mask is not None:
            scores = scores + mask[None, None, :, :]
        scores = F.softmax(scores.float(), dim=-1).type_as(xq)
        output = torch.matmul(scores, values)
        output = output.transpose(1, 2).contiguous().view(bsz, seqlen, -1)
        return self.wo(output)


@checked
class FeedForward(nn.Module, Generic[D, F_]):
    def __init__(self, dim: Dim[D], hidden_dim: Dim[F_]) -> None:
        super().__init__()
        self.w1 = nn.Linear(dim, hidden_dim, bias=False)
        self.w2 = nn.Linear(hidden_dim, dim, bias=False)
        self.w3 = nn.Linear(dim, hidden_dim, bias=False)

    def forward(self, x: Tensor[B, T, D]) -> Tensor[B, T, D]:
        return self.w2(F.silu(self.w1(x)) * self.w3(x))


@checked
class TransformerBlock(nn.Module, Generic[D, H, KV, Hd, F_, MB, MS]):
    def __init__(
        self,
        dim: Dim[D],
        n_heads: Dim[H],
        n_kv_heads: Dim[KV],
        head_dim: Dim[Hd],
        hidden_dim: Dim[F_],
        max_batch: Dim[MB],
        max_seq: Dim[MS],
        eps: float,
    ) -> None:
        super().__init__()
        self.attention = Attention(dim, n_heads, n_kv_heads, head_dim, max_batch, max_seq)
        self.feed_forward = FeedForward(dim, hidden_dim)
        self.attention_norm = RMSNorm(dim, eps=eps)
        self.ffn_norm = RMSNorm(dim, eps=eps)

    def forward(
        self, x: Tensor[B, T, D], start_pos: int, cos: Tensor[T, Hd], sin: Tensor[T, Hd], mask: Optional[Tensor]
    ) -> Tensor[B, T, D]:
        r = self.attention(self.attention_norm(x), start_pos, cos, sin, mask)
        h = x + r
        out = h + self.feed_forward(self.ffn_norm(h))
        return out


@checked
class Transformer(nn.Module, Generic[V, D, H, KV, Hd, F_, MB, MS]):
    def __init__(
        self,
        args: ModelArgs,
        vocab: Dim[V],
        dim: Dim[D],
        n_heads: Dim[H],
        n_kv_heads: Dim[KV],
        head_dim: Dim[Hd],
        hidden_dim: Dim[F_],
        max_batch: Dim[MB],
        max_seq: Dim[MS],
    ) -> None:
        super().__init__()
        self.args = args
        self.tok_embeddings = nn.Embedding(vocab, dim)
        self.layers = nn.ModuleList(
            [
                TransformerBlock(dim, n_heads, n_kv_heads, head_dim, hidden_dim, max_batch, max_seq, args.norm_eps)
                for _ in range(args.n_layers)
            ]
        )
        self.norm = RMSNorm(dim, eps=args.norm_eps)
        self.output = nn.Linear(dim, vocab, bias=False)
        self.rope = RotaryEmbedding(head_dim, max_seq, args.rope_theta)

    def forward(self, tokens: Tensor[B, T], start_pos: int) -> Tensor[B, T, V]:
        _bsz, seqlen = tokens.shape
        h = self.tok_embeddings(tokens)
        cos, sin = self.rope(start_pos, seqlen)
        mask: Optional[Tensor] = None
        if seqlen > 1:
            mask = torch.full((seqlen, seqlen), float("-inf"), device=tokens.device)
            mask = torch.triu(mask, diagonal=1)
            # sliding window: also mask keys more than `window` back
            mask = mask + torch.tril(torch.full((seqlen, seqlen), float("-inf")), diagonal=-self.args.sliding_window)
            mask = torch.hstack([torch.zeros((seqlen, start_pos), device=tokens.device), mask]).type_as(h)
        for layer in self.layers:
            h = layer(h, start_pos, cos, sin, mask)
        h = self.norm(h)
        return self.output(h).float()


@torch.inference_mode()
def generate(
    model: Transformer, idx: Tensor[B, T], max_new_tokens: int, temperature: float = 1.0, top_k: Optional[int] = None
) -> Tensor:
    prev_pos = 0
    cur = idx
    for _ in range(max_new_tokens):
        logits = model(cur, prev_pos)
        prev_pos += cur.shape[1]
        logits = logits[:, -1, :] / temperature
        if top_k is not None:
            v, _ = torch.topk(logits, min(top_k, logits.size(-1)))
            logits[logits < v[:, [-1]]] = -float("Inf")
        probs = F.softmax(logits, dim=-1)
        idx_next = torch.multinomial(probs, num_samples=1)
        idx = torch.cat((idx, idx_next), dim=1)
        cur = idx_next
    return idx


@checked
def generate_nocache(
    model: Transformer, idx: Tensor[B, T], max_new_tokens: int, block_size: int, temperature: float = 1.0, top_k: int = 5
) -> Tensor[B, "T+1"]:
    idx_cond = idx if idx.size(1) <= block_size else idx[:, -block_size:]
    logits = model(idx_cond, 0)
    logits = logits[:, -1, :] / temperature
    v, ix = torch.topk(logits, top_k, dim=-1)
    logits = logits.masked_fill(logits < v[:, [-1]], -float("Inf"))
    probs = F.softmax(logits, dim=-1)
    idx_next = torch.multinomial(probs, num_samples=1)
    out = torch.cat((idx, idx_next), dim=1)
    return out


def demo() -> None:
    torch.manual_seed(0)
    args = ModelArgs()
    model = Transformer(
        args, args.vocab_size, args.dim, args.n_heads, args.n_kv_heads, args.head_dim, args.hidden_dim,
        args.max_batch_size, args.max_seq_len,
    )
    prompt = torch.randint(0, args.vocab_size, (2, 7))
    logits = model(prompt, 0)
    print("logits", logits.shape)
    print("mask", sliding_window_mask(7, 3, torch.device("cpu")).shape)
    print("cached_mask", cached_mask(3, 4, 2).shape)
    out = generate(model, prompt, 5, temperature=0.8, top_k=10)
    print("gen", out.shape)
    out2 = generate_nocache(model, prompt, 1, block_size=4)
    print("gen2", out2.shape)
    cos, sin = model.rope(2, 5)
    q = torch.randn(2, 4, 5, 16)
    k = torch.randn(2, 2, 5, 16)
    qe, ke = apply_rotary_pos_emb(q, k, cos, sin)
    print("rope", qe.shape, ke.shape)


if __name__ == "__main__":
    demo()
