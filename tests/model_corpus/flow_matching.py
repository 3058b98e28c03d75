"""Rectified flow / flow matching: a training step and an Euler sampler with classifier-free guidance.

Two velocity nets: an MLP on flattened images and a small DiT (patchify with einops, adaLN modulation).
t is drawn per sample, broadcast with t.view(-1, 1, 1, 1); x_t = (1 - t) * x0 + t * x1; the target is
x1 - x0; classifier-free guidance duplicates the batch (torch.cat([x, x])), splits it with chunk(2) and mixes.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")
D = TypeVar("D")  # hidden width
K = TypeVar("K")  # classes
T = TypeVar("T")  # time embedding width
L = TypeVar("L")  # tokens
P = TypeVar("P")  # patch size
Hh = TypeVar("Hh")


def timestep_embedding(t: Tensor[B], dim: Dim[T], max_period: float = 10000.0) -> Tensor[B, T]:
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(half, dtype=torch.float32, device=t.device) / half)
    args = t[:, None].float() * freqs[None] * 1000.0
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


# ------------------------------------------------------------------------------------------- MLP net


@checked
class MLPVelocity(nn.Module, Generic[C, H, W, D, K]):
    """v(x_t, t, y) for images of fixed size (C, H, W), with a "null" class K for classifier-free guidance."""

    def __init__(self, channels: Dim[C], height: Dim[H], width: Dim[W], hidden: Dim[D], num_classes: Dim[K],
                 t_dim: int = 32) -> None:
        super().__init__()
        self.channels, self.height, self.width = channels, height, width
        self.t_dim = t_dim
        in_features = channels * height * width
        self.t_mlp = nn.Sequential(nn.Linear(t_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))
        self.y_emb = nn.Embedding(num_classes + 1, hidden)
        self.inp = nn.Linear(in_features, hidden)
        self.net = nn.Sequential(
            nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(), nn.Linear(hidden, hidden), nn.SiLU(),
            nn.Linear(hidden, in_features),
        )

    def forward(self, x: Tensor[B, C, H, W], t: Tensor[B], y: Tensor[B]) -> Tensor[B, C, H, W]:
        temb = self.t_mlp(timestep_embedding(t, self.t_dim))
        h = self.inp(x.flatten(1))
        h = h + temb + self.y_emb(y)
        out = self.net(h)
        return out.view(-1, self.channels, self.height, self.width)


# ------------------------------------------------------------------------------------------- DiT net


def modulate(x: Tensor[B, L, D], shift: Tensor[B, D], scale: Tensor[B, D]) -> Tensor[B, L, D]:
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


@checked
class DiTBlock(nn.Module, Generic[D, Hh]):
    def __init__(self, dim: Dim[D], heads: Dim[Hh]) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.mlp = nn.Sequential(nn.Linear(dim, 4 * dim), nn.GELU(approximate="tanh"), nn.Linear(4 * dim, dim))
        self.ada = nn.Sequential(nn.SiLU(), nn.Linear(dim, 6 * dim))

    def attn(self, x: Tensor[B, L, D]) -> Tensor[B, L, D]:
        q, k, v = rearrange(self.qkv(x), "b l (three h d) -> three b h l d", three=3, h=self.heads)
        o = F.scaled_dot_product_attention(q, k, v)
        return self.proj(rearrange(o, "b h l d -> b l (h d)"))

    def forward(self, x: Tensor[B, L, D], c: Tensor[B, D]) -> Tensor[B, L, D]:
        shift1, scale1, gate1, shift2, scale2, gate2 = self.ada(c).chunk(6, dim=1)
        x = x + gate1.unsqueeze(1) * self.attn(modulate(self.norm1(x), shift1, scale1))
        x = x + gate2.unsqueeze(1) * self.mlp(modulate(self.norm2(x), shift2, scale2))
        return x


@checked
class TinyDiT(nn.Module, Generic[C, D, P, K]):
    def __init__(self, channels: Dim[C], dim: Dim[D], patch: Dim[P], num_classes: Dim[K], depth: int,
                 heads: int, image_size: int) -> None:
        super().__init__()
        self.patch = patch
        self.channels = channels
        self.num_classes = num_classes
        self.patch_embed = nn.Linear(channels * patch * patch, dim)
        self.pos = nn.Parameter(torch.zeros(1, (image_size // patch) ** 2, dim))
        self.t_embed = nn.Sequential(nn.Linear(64, dim), nn.SiLU(), nn.Linear(dim, dim))
        self.y_embed = nn.Embedding(num_classes + 1, dim)
        self.blocks = nn.ModuleList([DiTBlock(dim, heads) for _ in range(depth)])
        self.final_norm = nn.LayerNorm(dim, elementwise_affine=False, eps=1e-6)
        self.final_ada = nn.Sequential(nn.SiLU(), nn.Linear(dim, 2 * dim))
        self.final = nn.Linear(dim, patch * patch * channels)

    def forward(self, x: Tensor[B, C, H, W], t: Tensor[B], y: Tensor[B]) -> Tensor[B, C, H, W]:
        _, _, h, w = x.shape
        p = self.patch
        tokens = rearrange(x, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=p, p2=p)
        z = self.patch_embed(tokens) + self.pos
        c = self.t_embed(timestep_embedding(t, 64)) + self.y_embed(y)
        for block in self.blocks:
            z = block(z, c)
        shift, scale = self.final_ada(c).chunk(2, dim=-1)
        z = self.final(modulate(self.final_norm(z), shift, scale))
        out = rearrange(z, "b (h w) (p1 p2 c) -> b c (h p1) (w p2)", h=h // p, p1=p, p2=p)
        return out


# ------------------------------------------------------------------------------------------- training / sampling


def sample_t(b: Dim[B], device: torch.device, logit_normal: bool = False) -> Tensor[B]:
    if logit_normal:
        return torch.sigmoid(torch.randn(b, device=device))
    return torch.rand(b, device=device)


def flow_matching_loss(model: nn.Module, x1: Tensor[B, C, H, W], y: Tensor[B], num_classes: int,
                       p_uncond: float = 0.1) -> Tensor[()]:
    """x0 ~ N(0, I) at t = 0, data x1 at t = 1; the velocity target is x1 - x0."""
    b = x1.shape[0]
    x0 = torch.randn_like(x1)
    t = sample_t(b, x1.device)
    t_ = t.view(-1, 1, 1, 1)
    xt = (1 - t_) * x0 + t_ * x1
    target = x1 - x0
    # label dropout: some samples get the null class, so the model also learns v(x_t, t, null)
    drop = torch.rand(b, device=x1.device) < p_uncond
    y = torch.where(drop, torch.full_like(y, num_classes), y)
    v = model(xt, t, y)
    return F.mse_loss(v, target)


def flow_matching_loss_per_sample(model: nn.Module, x1: Tensor[B, C, H, W], y: Tensor[B]) -> Tensor[()]:
    """Same loss written with an explicit per-sample mean (as in SD3's training scripts)."""
    x0 = torch.randn_like(x1)
    t = torch.rand((x1.shape[0],), device=x1.device)
    texp = t[:, None, None, None]
    xt = (1 - texp) * x0 + texp * x1
    v = model(xt, t, y)
    loss = ((v - (x1 - x0)) ** 2).mean(dim=list(range(1, x1.ndim)))
    assert loss.shape == ((v - (x1 - x0)) ** 2).mean(dim=(1, 2, 3)).shape
    return loss.mean()


@torch.no_grad()
def cfg_velocity(model: nn.Module, x: Tensor[B, C, H, W], t: Tensor[B], y: Tensor[B], null_class: int,
                 guidance: float) -> Tensor[B, C, H, W]:
    x_in = torch.cat([x, x])
    t_in = torch.cat([t, t], dim=0)
    y_in = torch.cat([y, torch.full_like(y, null_class)])
    v = model(x_in, t_in, y_in)
    v_cond, v_uncond = v.chunk(2)
    return v_uncond + guidance * (v_cond - v_uncond)


@torch.no_grad()
def euler_sample(model: nn.Module, y: Tensor[B], shape: tuple[int, int, int], null_class: int,
                 steps: int = 10, guidance: float = 3.0) -> Tensor:
    b = y.shape[0]
    x = torch.randn(b, *shape)
    ts = torch.linspace(0, 1, steps + 1)
    for i in range(steps):
        t = ts[i].expand(b)
        dt = ts[i + 1] - ts[i]
        x = x + dt * cfg_velocity(model, x, t, y, null_class, guidance)
    return x


@torch.no_grad()
def euler_sample_typed(model: MLPVelocity[C, H, W, D, K], y: Tensor[B], steps: int = 8,
                       guidance: float = 2.0) -> Tensor[B, C, H, W]:
    b = y.shape[0]
    x = torch.randn(b, model.channels, model.height, model.width)
    dt = 1.0 / steps
    for i in range(steps):
        t = torch.full((b,), i * dt)
        x_in = torch.cat([x, x])
        v = model(x_in, torch.cat([t, t]), torch.cat([y, torch.full_like(y, model.y_emb.num_embeddings - 1)]))
        v_cond, v_uncond = torch.chunk(v, 2, dim=0)
        v = v_uncond + guidance * (v_cond - v_uncond)
        x = x + dt * v
    return x


def demo() -> None:
    torch.manual_seed(0)
    mlp = MLPVelocity(channels=3, height=8, width=6, hidden=64, num_classes=10)
    opt = torch.optim.AdamW(mlp.parameters(), lr=1e-3)
    x1 = torch.randn(5, 3, 8, 6)
    y = torch.randint(0, 10, (5,))
    loss = flow_matching_loss(mlp, x1, y, num_classes=10)
    loss.backward()
    opt.step()
    print("mlp loss", loss.item())
    print("per-sample loss", flow_matching_loss_per_sample(mlp, x1, y).item())
    s = euler_sample(mlp, y[:3], (3, 8, 6), null_class=10, steps=4)
    print("mlp sample", s.shape)
    assert s.shape == (3, 3, 8, 6)
    s2 = euler_sample_typed(mlp, y[:2], steps=3)
    print("mlp sample typed", s2.shape)
    dit = TinyDiT(channels=4, dim=32, patch=2, num_classes=10, depth=2, heads=4, image_size=8)
    x1 = torch.randn(3, 4, 8, 8)
    y = torch.randint(0, 10, (3,))
    loss = flow_matching_loss(dit, x1, y, num_classes=10)
    loss.backward()
    print("dit loss", loss.item())
    s = euler_sample(dit, y, (4, 8, 8), null_class=10, steps=3)
    print("dit sample", s.shape)
    assert s.shape == (3, 4, 8, 8)


if __name__ == "__main__":
    demo()
