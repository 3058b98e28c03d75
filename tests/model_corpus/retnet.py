"""A small RetNet LM: multi-scale retention with per-head decays, the decay mask built from
arange / outer differences / tril / masked_fill, xPos-style rotation (rotate_every_two), GroupNorm
over heads, SiLU gate; the parallel, recurrent (kv-state einsum) and chunkwise forms agree.
"""

from __future__ import annotations

from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")  # batch
T = TypeVar("T")  # time
E = TypeVar("E")  # embed_dim
H = TypeVar("H")  # heads
V = TypeVar("V")  # vocab
Kd = TypeVar("Kd")  # key dim per head
Vd = TypeVar("Vd")  # value dim per head


def rotate_every_two(x: Tensor[B, H, T, Kd]) -> Tensor[B, H, T, Kd]:
    x1 = x[:, :, :, ::2]
    x2 = x[:, :, :, 1::2]
    x = torch.stack((-x2, x1), dim=-1)
    return x.flatten(-2)


def theta_shift(x: Tensor[B, H, T, Kd], sin: Tensor[T, Kd], cos: Tensor[T, Kd]) -> Tensor[B, H, T, Kd]:
    return (x * cos) + (rotate_every_two(x) * sin)


@checked
class RetNetRelPos(nn.Module, Generic[E, H]):
    angle: Tensor["E//H"]
    decay: Tensor[H]

    def __init__(self, embed_dim: Dim[E], num_heads: Dim[H]) -> None:
        super().__init__()
        angle = 1.0 / (10000 ** torch.linspace(0, 1, embed_dim // num_heads // 2))
        angle = angle.unsqueeze(-1).repeat(1, 2).flatten()
        decay = torch.log(1 - 2 ** (-5 - torch.arange(num_heads, dtype=torch.float)))
        self.register_buffer("angle", angle)
        self.register_buffer("decay", decay)

    def forward(self, slen: Dim[T]) -> tuple[tuple[Tensor[T, "E//H"], Tensor[T, "E//H"]], Tensor[H, T, T]]:
        index = torch.arange(slen).to(self.decay)
        sin = torch.sin(index[:, None] * self.angle[None, :])
        cos = torch.cos(index[:, None] * self.angle[None, :])
        mask = torch.tril(torch.ones(slen, slen).to(self.decay))
        mask = torch.masked_fill(index[:, None] - index[None, :], ~mask.bool(), float("inf"))
        mask = torch.exp(mask * self.decay[:, None, None])
        mask = torch.nan_to_num(mask)
        return (sin, cos), mask

    def step(self, n: int) -> tuple[tuple[Tensor["E//H"], Tensor["E//H"]], Tensor[H]]:
        """The rotation at position n and the per-head decay, for the recurrent form."""
        sin = torch.sin(self.angle * n)
        cos = torch.cos(self.angle * n)
        return (sin, cos), self.decay.exp()


@checked
class MultiScaleRetention(nn.Module, Generic[E, H]):
    def __init__(self, embed_dim: Dim[E], num_heads: Dim[H]) -> None:
        super().__init__()
        self.embed_dim = embed_dim
        self.value_dim = 2 * embed_dim
        self.num_heads = num_heads
        self.head_dim = self.value_dim // num_heads
        self.key_dim = embed_dim // num_heads
        self.scaling = self.key_dim**-0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_proj = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_proj = nn.Linear(embed_dim, self.value_dim, bias=False)
        self.g_proj = nn.Linear(embed_dim, self.value_dim, bias=False)
        self.out_proj = nn.Linear(self.value_dim, embed_dim, bias=False)
        self.group_norm = nn.GroupNorm(num_heads, self.value_dim, affine=False)

    def heads(self, x: Tensor[B, T, E]) -> tuple[Tensor[B, H, T, "E//H"], Tensor[B, H, T, "E//H"], Tensor[B, H, T, "2*E//H"]]:
        bsz, tgt_len, _ = x.size()
        q = self.q_proj(x)
        k = self.k_proj(x) * self.scaling
        v = self.v_proj(x)
        q = q.view(bsz, tgt_len, self.num_heads, self.key_dim).transpose(1, 2)
        k = k.view(bsz, tgt_len, self.num_heads, self.key_dim).transpose(1, 2)
        v = v.view(bsz, tgt_len, self.num_heads, self.head_dim).transpose(1, 2)
        return q, k, v

    def out(self, x: Tensor[B, T, E], o: Tensor[B, H, T, "2*E//H"]) -> Tensor[B, T, E]:
        bsz, tgt_len, _ = x.size()
        # group norm over heads: each head's value_dim // H channels form one group
        o = o.transpose(1, 2).reshape(bsz * tgt_len, self.value_dim)
        o = self.group_norm(o).reshape(bsz, tgt_len, self.value_dim)
        o = F.silu(self.g_proj(x)) * o
        return self.out_proj(o)

    def forward(
        self, x: Tensor[B, T, E], rel_pos: tuple[tuple[Tensor[T, "E//H"], Tensor[T, "E//H"]], Tensor[H, T, T]]
    ) -> Tensor[B, T, E]:
        (sin, cos), mask = rel_pos
        q, k, v = self.heads(x)
        qr = theta_shift(q, sin, cos)
        kr = theta_shift(k, sin, cos)
        qk_mat = qr @ kr.transpose(-1, -2)  # (B, H, T, T)
        qk_mat = qk_mat * mask
        output = torch.matmul(qk_mat, v)  # (B, H, T, Vd)
        return self.out(x, output)

    def recurrent(
        self,
        x: Tensor[B, 1, E],
        rel_pos: tuple[tuple[Tensor["E//H"], Tensor["E//H"]], Tensor[H]],
        state: Tensor[B, H, "E//H", "2*E//H"],
    ) -> tuple[Tensor[B, 1, E], Tensor[B, H, "E//H", "2*E//H"]]:
        (sin, cos), decay = rel_pos
        q, k, v = self.heads(x)
        qr = theta_shift(q, sin[None], cos[None])
        kr = theta_shift(k, sin[None], cos[None])
        kv = torch.einsum("bhk,bhv->bhkv", kr.squeeze(2), v.squeeze(2))
        state = state * decay.view(1, self.num_heads, 1, 1) + kv
        output = torch.einsum("bhk,bhkv->bhv", qr.squeeze(2), state)
        return self.out(x, output.unsqueeze(2)), state

    def chunkwise(
        self,
        x: Tensor[B, T, E],
        rel_pos: tuple[tuple[Tensor[T, "E//H"], Tensor[T, "E//H"]], Tensor[H, T, T]],
        state: Tensor[B, H, "E//H", "2*E//H"],
        gamma: Tensor[H],
    ) -> tuple[Tensor[B, T, E], Tensor[B, H, "E//H", "2*E//H"]]:
        """One chunk: inner-chunk parallel retention plus the cross-chunk contribution of the state.
        rel_pos holds the rotation at the chunk's absolute positions and the chunk's (H, T, T) mask."""
        (sin, cos), mask = rel_pos
        chunk = x.shape[1]
        q, k, v = self.heads(x)
        qr = theta_shift(q, sin, cos)
        kr = theta_shift(k, sin, cos)
        inner = ((qr @ kr.transpose(-1, -2)) * mask) @ v
        # decay from each position to the end of the chunk, and from the chunk start to each position
        pos = torch.arange(chunk, dtype=torch.float32)
        to_end = gamma[:, None] ** (chunk - 1 - pos)[None, :]  # (H, T)
        from_start = gamma[:, None] ** (pos + 1)[None, :]  # (H, T)
        cross = (qr @ state) * from_start[None, :, :, None]
        state = state * (gamma**chunk).view(1, -1, 1, 1) + kr.transpose(-1, -2) @ (v * to_end[None, :, :, None])
        return self.out(x, inner + cross), state


@checked
class RetNetBlock(nn.Module, Generic[E, H]):
    def __init__(self, embed_dim: Dim[E], num_heads: Dim[H], ffn_dim: int) -> None:
        super().__init__()
        self.retention = MultiScaleRetention(embed_dim, num_heads)
        self.ln1 = nn.LayerNorm(embed_dim)
        self.ln2 = nn.LayerNorm(embed_dim)
        self.ffn = nn.Sequential(nn.Linear(embed_dim, ffn_dim), nn.GELU(), nn.Linear(ffn_dim, embed_dim))

    def forward(
        self, x: Tensor[B, T, E], rel_pos: tuple[tuple[Tensor[T, "E//H"], Tensor[T, "E//H"]], Tensor[H, T, T]]
    ) -> Tensor[B, T, E]:
        x = x + self.retention(self.ln1(x), rel_pos)
        return x + self.ffn(self.ln2(x))


@checked
class RetNet(nn.Module, Generic[V, E, H]):
    def __init__(self, vocab_size: Dim[V], embed_dim: Dim[E], num_heads: Dim[H], n_layer: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab_size, embed_dim)
        self.rel_pos = RetNetRelPos(embed_dim, num_heads)
        self.layers = nn.ModuleList([RetNetBlock(embed_dim, num_heads, 4 * embed_dim) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(embed_dim)

    def forward(self, idx: Tensor[B, T]) -> Tensor[B, T, V]:
        _, t = idx.shape
        x = self.embed(idx)
        rel_pos = self.rel_pos(t)
        for layer in self.layers:
            x = layer(x, rel_pos)
        x = self.ln_f(x)
        logits = F.linear(x, self.embed.weight)  # tied
        return logits


def demo() -> None:
    torch.manual_seed(0)
    model = RetNet(vocab_size=30, embed_dim=16, num_heads=2, n_layer=2)
    idx = torch.randint(0, 30, (3, 9))
    logits = model(idx[:, :-1])
    assert logits.shape == (3, 8, 30)
    F.cross_entropy(logits.flatten(0, 1), idx[:, 1:].flatten()).backward()

    msr = model.layers[0].retention
    rp = model.rel_pos
    x = torch.randn(3, 8, 16)
    with torch.no_grad():
        par = msr(x, rp(8))
        state = torch.zeros(3, 2, 8, 16)
        outs = []
        for n in range(8):
            o, state = msr.recurrent(x[:, n : n + 1], rp.step(n), state)
            outs.append(o)
        assert torch.allclose(par, torch.cat(outs, dim=1), atol=1e-5)
        # chunkwise, chunks of 4
        (sin, cos), mask = rp(8)
        gamma = rp.decay.exp()
        state = torch.zeros(3, 2, 8, 16)
        outs = []
        for c in range(2):
            sl = slice(4 * c, 4 * c + 4)
            o, state = msr.chunkwise(x[:, sl], ((sin[sl], cos[sl]), mask[:, :4, :4]), state, gamma)
            outs.append(o)
        assert torch.allclose(par, torch.cat(outs, dim=1), atol=1e-5)
    print("ok")


if __name__ == "__main__":
    import builtins

    builtins.reveal_type = lambda x: x  # type: ignore[attr-defined]
    demo()
