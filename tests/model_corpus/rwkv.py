"""A small RWKV LM: v4 time-mix (token shift by nn.ZeroPad2d, learned mixing, WKV by a numerically
stable loop) and v5-style multi-head time-mix (matrix-valued state, GroupNorm over heads), channel mix
with squared ReLU, and an RNN mode (token by token with a state) that matches the parallel mode.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")  # batch
T = TypeVar("T")  # time
C = TypeVar("C")  # n_embd
A = TypeVar("A")  # attention size
H = TypeVar("H")  # heads (v5)
V = TypeVar("V")  # vocab


def wkv_v4(w: Tensor[C], u: Tensor[C], k: Tensor[B, T, C], v: Tensor[B, T, C]) -> Tensor[B, T, C]:
    """The v4 WKV recurrence, written as RWKV's CPU reference: running (aa, bb, pp) per channel."""
    b, t, c = k.size()
    w = -torch.exp(w)
    aa = torch.zeros(b, c, dtype=k.dtype)
    bb = torch.zeros(b, c, dtype=k.dtype)
    pp = torch.full((b, c), -1e38, dtype=k.dtype)
    out = []
    for i in range(t):
        kk = k[:, i]
        vv = v[:, i]
        ww = u + kk
        p = torch.maximum(pp, ww)
        e1 = torch.exp(pp - p)
        e2 = torch.exp(ww - p)
        out.append((e1 * aa + e2 * vv) / (e1 * bb + e2))
        ww = w + pp
        p = torch.maximum(ww, kk)
        e1 = torch.exp(ww - p)
        e2 = torch.exp(kk - p)
        aa = e1 * aa + e2 * vv
        bb = e1 * bb + e2
        pp = p
    y = torch.stack(out, dim=1)
    return y


def wkv_v4_naive(w: Tensor[C], u: Tensor[C], k: Tensor[B, T, C], v: Tensor[B, T, C]) -> Tensor[B, T, C]:
    """The same WKV in closed form: a (T, T) decay matrix per channel, bonus u on the diagonal."""
    t = k.shape[1]
    w = -torch.exp(w)
    idx = torch.arange(t)
    diff = (idx[:, None] - idx[None, :] - 1).float()  # t - i - 1
    logw = diff[None, :, :] * w[:, None, None]  # (C, T, T)
    logw = logw.masked_fill(~torch.tril(torch.ones(t, t, dtype=torch.bool)), float("-inf"))
    logw = torch.where(torch.eye(t, dtype=torch.bool), u[:, None, None], logw)  # diagonal: u
    logits = logw[None] + k.transpose(1, 2)[:, :, None, :]  # (B, C, T, T): w-decay + k_i
    wts = torch.softmax(logits, dim=-1)
    y = torch.einsum("bcts,bsc->btc", wts, v)
    return y


@checked
class RWKV_TimeMix(nn.Module, Generic[C, A]):
    def __init__(self, n_embd: Dim[C], attn_sz: Dim[A], layer_id: int, n_layer: int) -> None:
        super().__init__()
        ratio_0_to_1 = layer_id / (n_layer - 1)
        ratio_1_to_almost0 = 1.0 - (layer_id / n_layer)
        decay_speed = torch.ones(attn_sz)
        for h in range(attn_sz):
            decay_speed[h] = -5 + 8 * (h / (attn_sz - 1)) ** (0.7 + 1.3 * ratio_0_to_1)
        self.time_decay = nn.Parameter(decay_speed)
        zigzag = torch.tensor([(i + 1) % 3 - 1 for i in range(attn_sz)]) * 0.5
        self.time_first = nn.Parameter(torch.ones(attn_sz) * math.log(0.3) + zigzag)
        x = torch.ones(1, 1, n_embd)
        for i in range(n_embd):
            x[0, 0, i] = i / n_embd
        self.time_mix_k = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
        self.time_mix_v = nn.Parameter(torch.pow(x, ratio_1_to_almost0) + 0.3 * ratio_0_to_1)
        self.time_mix_r = nn.Parameter(torch.pow(x, 0.5 * ratio_1_to_almost0))

        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        self.key = nn.Linear(n_embd, attn_sz, bias=False)
        self.value = nn.Linear(n_embd, attn_sz, bias=False)
        self.receptance = nn.Linear(n_embd, attn_sz, bias=False)
        self.output = nn.Linear(attn_sz, n_embd, bias=False)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        B, T, C = x.size()  # shadows the TypeVars, as in RWKV-LM
        xx = self.time_shift(x)  # x shifted one step later in time, zero at t = 0
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xv = x * self.time_mix_v + xx * (1 - self.time_mix_v)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        k = self.key(xk)
        v = self.value(xv)
        r = self.receptance(xr)
        sr = torch.sigmoid(r)
        rwkv = sr * wkv_v4(self.time_decay, self.time_first, k, v)
        return self.output(rwkv)

    def step(
        self, x: Tensor[B, C], x_prev: Tensor[B, C], aa: Tensor[B, A], bb: Tensor[B, A], pp: Tensor[B, A]
    ) -> tuple[Tensor[B, C], Tensor[B, C], Tensor[B, A], Tensor[B, A], Tensor[B, A]]:
        """RNN mode: one token, the state is (previous x, aa, bb, pp)."""
        xk = x * self.time_mix_k[0, 0] + x_prev * (1 - self.time_mix_k[0, 0])
        xv = x * self.time_mix_v[0, 0] + x_prev * (1 - self.time_mix_v[0, 0])
        xr = x * self.time_mix_r[0, 0] + x_prev * (1 - self.time_mix_r[0, 0])
        r = torch.sigmoid(self.receptance(xr))
        k = self.key(xk)
        v = self.value(xv)
        ww = self.time_first + k
        p = torch.maximum(pp, ww)
        e1 = torch.exp(pp - p)
        e2 = torch.exp(ww - p)
        wkv = (e1 * aa + e2 * v) / (e1 * bb + e2)
        ww = -torch.exp(self.time_decay) + pp
        p = torch.maximum(ww, k)
        e1 = torch.exp(ww - p)
        e2 = torch.exp(k - p)
        aa = e1 * aa + e2 * v
        bb = e1 * bb + e2
        return self.output(r * wkv), x, aa, bb, p


@checked
class RWKV5_TimeMix(nn.Module, Generic[C, H]):
    """v5: multi-head, matrix-valued state per head, GroupNorm over heads, SiLU gate."""

    def __init__(self, n_embd: Dim[C], n_head: Dim[H]) -> None:
        super().__init__()
        self.n_head = n_head
        self.head_size = n_embd // n_head
        self.time_mix_k = nn.Parameter(torch.rand(1, 1, n_embd))
        self.time_mix_v = nn.Parameter(torch.rand(1, 1, n_embd))
        self.time_mix_r = nn.Parameter(torch.rand(1, 1, n_embd))
        self.time_mix_g = nn.Parameter(torch.rand(1, 1, n_embd))
        self.time_decay = nn.Parameter(torch.randn(n_head, self.head_size))
        self.time_faaaa = nn.Parameter(torch.rand(n_head, self.head_size))
        self.receptance = nn.Linear(n_embd, n_embd, bias=False)
        self.key = nn.Linear(n_embd, n_embd, bias=False)
        self.value = nn.Linear(n_embd, n_embd, bias=False)
        self.gate = nn.Linear(n_embd, n_embd, bias=False)
        self.output = nn.Linear(n_embd, n_embd, bias=False)
        self.ln_x = nn.GroupNorm(n_head, n_embd)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        B, T, C = x.size()
        H, S = self.n_head, self.head_size
        xx = F.pad(x, (0, 0, 1, -1))
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xv = x * self.time_mix_v + xx * (1 - self.time_mix_v)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        xg = x * self.time_mix_g + xx * (1 - self.time_mix_g)
        r = self.receptance(xr).view(B, T, H, S).transpose(1, 2)  # (B, H, T, S)
        k = self.key(xk).view(B, T, H, S).transpose(1, 2)
        v = self.value(xv).view(B, T, H, S).transpose(1, 2)
        g = F.silu(self.gate(xg))
        w = torch.exp(-torch.exp(self.time_decay.float())).unsqueeze(-1)  # (H, S, 1)
        u = self.time_faaaa.unsqueeze(-1)  # (H, S, 1)
        state = torch.zeros(B, H, S, S, dtype=x.dtype)
        out = []
        for t in range(T):
            rt = r[:, :, t : t + 1, :]  # (B, H, 1, S)
            kt = k[:, :, t : t + 1, :].transpose(-2, -1)  # (B, H, S, 1)
            vt = v[:, :, t : t + 1, :]  # (B, H, 1, S)
            at = kt @ vt  # (B, H, S, S)
            out.append((rt @ (u * at + state)).squeeze(2))  # (B, H, S)
            state = at + w * state
        y = torch.stack(out, dim=1)  # (B, T, H, S)
        y = y.reshape(B * T, C)
        y = self.ln_x(y).view(B, T, C)
        return self.output(y * g)


@checked
class RWKV_ChannelMix(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C], layer_id: int, n_layer: int) -> None:
        super().__init__()
        self.time_shift = nn.ZeroPad2d((0, 0, 1, -1))
        ratio_1_to_almost0 = 1.0 - (layer_id / n_layer)
        x = torch.ones(1, 1, n_embd)
        for i in range(n_embd):
            x[0, 0, i] = i / n_embd
        self.time_mix_k = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
        self.time_mix_r = nn.Parameter(torch.pow(x, ratio_1_to_almost0))
        hidden_sz = 4 * n_embd
        self.key = nn.Linear(n_embd, hidden_sz, bias=False)
        self.receptance = nn.Linear(n_embd, n_embd, bias=False)
        self.value = nn.Linear(hidden_sz, n_embd, bias=False)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        xx = self.time_shift(x)
        xk = x * self.time_mix_k + xx * (1 - self.time_mix_k)
        xr = x * self.time_mix_r + xx * (1 - self.time_mix_r)
        k = self.key(xk)
        k = torch.square(torch.relu(k))
        kv = self.value(k)
        rkv = torch.sigmoid(self.receptance(xr)) * kv
        return rkv

    def step(self, x: Tensor[B, C], x_prev: Tensor[B, C]) -> tuple[Tensor[B, C], Tensor[B, C]]:
        xk = x * self.time_mix_k[0, 0] + x_prev * (1 - self.time_mix_k[0, 0])
        xr = x * self.time_mix_r[0, 0] + x_prev * (1 - self.time_mix_r[0, 0])
        k = torch.square(torch.relu(self.key(xk)))
        return torch.sigmoid(self.receptance(xr)) * self.value(k), x


@checked
class Block(nn.Module, Generic[C]):
    def __init__(self, n_embd: Dim[C], layer_id: int, n_layer: int, v5_heads: int = 0) -> None:
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)
        self.v5 = v5_heads > 0
        self.att = RWKV_TimeMix(n_embd, n_embd, layer_id, n_layer)
        self.att5 = RWKV5_TimeMix(n_embd, max(v5_heads, 1))
        self.ffn = RWKV_ChannelMix(n_embd, layer_id, n_layer)

    def forward(self, x: Tensor[B, T, C]) -> Tensor[B, T, C]:
        if self.v5:
            x = x + self.att5(self.ln1(x))
        else:
            x = x + self.att(self.ln1(x))
        x = x + self.ffn(self.ln2(x))
        return x


@checked
class RWKV(nn.Module, Generic[V, C]):
    def __init__(self, vocab_size: Dim[V], n_embd: Dim[C], n_layer: int) -> None:
        super().__init__()
        self.emb = nn.Embedding(vocab_size, n_embd)
        self.ln0 = nn.LayerNorm(n_embd)
        self.blocks = nn.ModuleList(
            [Block(n_embd, i, n_layer, v5_heads=4 if i % 2 else 0) for i in range(n_layer)]
        )
        self.ln_out = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx: Tensor[B, T]) -> Tensor[B, T, V]:
        x = self.ln0(self.emb(idx))
        for block in self.blocks:
            x = block(x)
        x = self.ln_out(x)
        return self.head(x)


def demo() -> None:
    torch.manual_seed(0)
    model = RWKV(vocab_size=40, n_embd=24, n_layer=2)
    idx = torch.randint(0, 40, (2, 9))
    logits = model(idx[:, :-1])
    assert logits.shape == (2, 8, 40)
    F.cross_entropy(logits.flatten(0, 1), idx[:, 1:].flatten()).backward()

    # the loop WKV agrees with the closed form
    w, u = torch.randn(16), torch.randn(16)
    k, v = torch.randn(2, 8, 16), torch.randn(2, 8, 16)
    assert torch.allclose(wkv_v4(w, u, k, v), wkv_v4_naive(w, u, k, v), atol=1e-4)

    # RNN mode agrees with the parallel mode
    blk = model.blocks[0]
    x = torch.randn(2, 8, 24)
    with torch.no_grad():
        par = blk.att(x)
        x_prev = torch.zeros(2, 24)
        aa, bb, pp = torch.zeros(2, 24), torch.zeros(2, 24), torch.full((2, 24), -1e38)
        outs = []
        for t in range(8):
            o, x_prev, aa, bb, pp = blk.att.step(x[:, t], x_prev, aa, bb, pp)
            outs.append(o)
        assert torch.allclose(par, torch.stack(outs, 1), atol=1e-5)
        x_prev = torch.zeros(2, 24)
        outs = []
        for t in range(8):
            o, x_prev = blk.ffn.step(x[:, t], x_prev)
            outs.append(o)
        assert torch.allclose(blk.ffn(x), torch.stack(outs, 1), atol=1e-5)
    # token-shift variants agree
    sh1 = nn.ZeroPad2d((0, 0, 1, -1))(x)
    sh2 = F.pad(x, (0, 0, 1, -1))
    sh3 = torch.cat([torch.zeros_like(x[:, :1]), x[:, :-1]], dim=1)
    assert torch.equal(sh1, sh2) and torch.equal(sh1, sh3)
    print("ok")


if __name__ == "__main__":
    import builtins

    builtins.reveal_type = lambda x: x  # type: ignore[attr-defined]
    demo()
