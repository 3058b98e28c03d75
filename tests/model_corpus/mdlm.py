"""MDLM: a masked diffusion language model.  A DiT-style backbone over tokens (einops for the heads,
rotary positions, adaLN conditioning on the noise level) and the masked-diffusion loss: tokens are
replaced by [MASK] with probability t, and the model is trained to recover them, weighted by 1/t.

Sizes come from a plain config dataclass; the blocks are generic in their width.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
S = TypeVar("S")  # sequence length
D = TypeVar("D")
Dc = TypeVar("Dc")  # conditioning width
H = TypeVar("H")
Hd = TypeVar("Hd")


@dataclass(frozen=True)
class MDLMConfig:
    vocab_size: int = 30  # the last id is [MASK]
    hidden_size: int = 32
    cond_dim: int = 16
    n_heads: int = 4
    n_blocks: int = 2
    length: int = 12


def rotate_half(x: Tensor[B, S, H, Hd]) -> Tensor[B, S, H, Hd]:
    x1, x2 = x[..., : x.shape[-1] // 2], x[..., x.shape[-1] // 2 :]
    return torch.cat((-x2, x1), dim=-1)


def apply_rotary(x: Tensor[B, S, H, Hd], cos: Tensor[S, Hd], sin: Tensor[S, Hd]) -> Tensor[B, S, H, Hd]:
    return x * cos[None, :, None, :] + rotate_half(x) * sin[None, :, None, :]


def rotary_tables(seq_len: int, head_dim: int, base: float = 10000.0) -> tuple[Tensor, Tensor]:
    inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
    freqs = torch.einsum("i,j->ij", torch.arange(seq_len).float(), inv_freq)
    emb = torch.cat((freqs, freqs), dim=-1)
    return emb.cos(), emb.sin()


@checked
class TimestepEmbedder(nn.Module, Generic[Dc]):
    def __init__(self, cond_dim: Dim[Dc], freq_dim: int = 64) -> None:
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, cond_dim), nn.SiLU(), nn.Linear(cond_dim, cond_dim))

    def forward(self, sigma: Tensor[B]) -> Tensor[B, Dc]:
        half = self.freq_dim // 2
        freqs = torch.exp(-math.log(10000.0) * torch.arange(half, dtype=torch.float32) / half)
        args = sigma[:, None] * freqs[None]
        return self.mlp(torch.cat([torch.cos(args), torch.sin(args)], dim=-1))


@checked
class DDiTBlock(nn.Module, Generic[D, Dc]):
    def __init__(self, dim: Dim[D], n_heads: int, cond_dim: Dim[Dc]) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.norm1 = nn.LayerNorm(dim)
        self.attn_qkv = nn.Linear(dim, 3 * dim, bias=False)
        self.attn_out = nn.Linear(dim, dim, bias=False)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))
        self.adaLN_modulation = nn.Linear(cond_dim, 6 * dim)
        nn.init.zeros_(self.adaLN_modulation.weight)
        nn.init.zeros_(self.adaLN_modulation.bias)

    def forward(self, x: Tensor[B, S, D], cos: Tensor[S, Hd], sin: Tensor[S, Hd], c: Tensor[B, Dc]) -> Tensor[
        B, S, D
    ]:
        shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = self.adaLN_modulation(c)[:, None].chunk(
            6, dim=2
        )
        x_skip = x
        x = self.norm1(x) * (1 + scale_msa) + shift_msa
        qkv = rearrange(self.attn_qkv(x), "b s (three h d) -> b s three h d", three=3, h=self.n_heads)
        q, k, v = qkv.unbind(dim=2)  # (B, S, H, Hd)
        q, k = apply_rotary(q, cos, sin), apply_rotary(k, cos, sin)
        q, k, v = (rearrange(t, "b s h d -> b h s d") for t in (q, k, v))
        x = F.scaled_dot_product_attention(q, k, v)  # bidirectional: a diffusion model sees the whole sequence
        x = rearrange(x, "b h s d -> b s (h d)")
        x = x_skip + gate_msa * self.attn_out(x)
        return x + gate_mlp * self.mlp(self.norm2(x) * (1 + scale_mlp) + shift_mlp)


class DIT(nn.Module):
    def __init__(self, config: MDLMConfig) -> None:
        super().__init__()
        self.config = config
        self.vocab_embed = nn.Embedding(config.vocab_size, config.hidden_size)
        self.sigma_map = TimestepEmbedder(config.cond_dim)
        self.blocks = nn.ModuleList(
            [DDiTBlock(config.hidden_size, config.n_heads, config.cond_dim) for _ in range(config.n_blocks)]
        )
        self.norm_final = nn.LayerNorm(config.hidden_size)
        self.output_layer = nn.Linear(config.hidden_size, config.vocab_size)
        cos, sin = rotary_tables(config.length, config.hidden_size // config.n_heads)
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        self.cos: Tensor
        self.sin: Tensor

    def forward(self, indices: Tensor[B, S], sigma: Tensor[B]) -> Tensor[B, S, Any]:
        x = self.vocab_embed(indices)
        c = F.silu(self.sigma_map(sigma))
        s = indices.shape[1]
        cos, sin = self.cos[:s], self.sin[:s]
        for block in self.blocks:
            x = block(x, cos, sin, c)
        return self.output_layer(self.norm_final(x))


def mdlm_loss(model: DIT, x0: Tensor[B, S], mask_index: int, eps: float = 1e-3) -> Tensor[()]:
    """Continuous-time masked diffusion with a linear schedule: alpha_t = 1 - t."""
    t = (1 - eps) * torch.rand(x0.shape[0]) + eps  # (B,)
    move = torch.rand(*x0.shape) < t[:, None]  # each token is masked with probability t
    xt = torch.where(move, mask_index, x0)
    logits = model(xt, t)
    logits[:, :, mask_index] = -torch.inf  # the model never predicts [MASK]
    log_p = logits.log_softmax(dim=-1)
    log_p_x0 = torch.gather(log_p, -1, x0[..., None]).squeeze(-1)  # (B, S)
    loss = -log_p_x0 * move / t[:, None]
    return loss.sum() / move.sum().clamp(min=1)


def demo() -> None:
    config = MDLMConfig()
    model = DIT(config)
    x0 = torch.randint(0, config.vocab_size - 1, (3, config.length))
    mdlm_loss(model, x0, mask_index=config.vocab_size - 1).backward()
