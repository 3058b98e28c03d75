"""DiT: a diffusion transformer on latent patches, conditioned by adaLN-zero on timestep and class.

Patchify with a strided conv, sinusoidal timestep embedding, `chunk(6, dim=-1)` modulation,
unpatchify with `einsum`.  Sizes are type parameters bound by `Dim` constructor arguments.
"""

from __future__ import annotations

import math
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

N = TypeVar("N")  # batch
L = TypeVar("L")  # tokens (patches)
C = TypeVar("C")  # latent channels
D = TypeVar("D")  # hidden width
Hh = TypeVar("Hh")  # heads
P = TypeVar("P")  # patch size
Hi = TypeVar("Hi")  # image height
Wi = TypeVar("Wi")  # image width
K = TypeVar("K")  # classes
F_ = TypeVar("F_")  # frequency embedding width
Hp = TypeVar("Hp")  # patches per column
Wp = TypeVar("Wp")  # patches per row


def modulate(x: Tensor[N, L, D], shift: Tensor[N, D], scale: Tensor[N, D]) -> Tensor[N, L, D]:
    return x * (1 + scale.unsqueeze(1)) + shift.unsqueeze(1)


def timestep_embedding(t: Tensor[N], dim: Dim[F_], max_period: float = 10000.0) -> Tensor[N, F_]:
    """Sinusoidal embedding of (fractional) timesteps: cos of the first half, sin of the second."""
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(0, half, dtype=torch.float32) / half)
    args = t[:, None].float() * freqs[None]
    return torch.cat([torch.cos(args), torch.sin(args)], dim=-1)


@checked
class TimestepEmbedder(nn.Module, Generic[D, F_]):
    def __init__(self, hidden: Dim[D], freq_dim: Dim[F_]) -> None:
        super().__init__()
        self.freq_dim = freq_dim
        self.mlp = nn.Sequential(nn.Linear(freq_dim, hidden), nn.SiLU(), nn.Linear(hidden, hidden))

    def forward(self, t: Tensor[N]) -> Tensor[N, D]:
        return self.mlp(timestep_embedding(t, self.freq_dim))


@checked
class Attention(nn.Module, Generic[D, Hh]):
    def __init__(self, dim: Dim[D], heads: Dim[Hh]) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x: Tensor[N, L, D]) -> Tensor[N, L, D]:
        n, l, d = x.shape
        qkv = self.qkv(x).reshape(n, l, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)  # (N, Hh, L, D//Hh) each
        x = F.scaled_dot_product_attention(q, k, v)
        x = x.transpose(1, 2).reshape(n, l, d)
        return self.proj(x)


@checked
class DiTBlock(nn.Module, Generic[D, Hh]):
    def __init__(self, hidden: Dim[D], heads: Dim[Hh], mlp_ratio: int = 4) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.attn = Attention(hidden, heads)
        self.norm2 = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.mlp = nn.Sequential(
            nn.Linear(hidden, hidden * mlp_ratio), nn.GELU(approximate="tanh"), nn.Linear(hidden * mlp_ratio, hidden)
        )
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 6 * hidden))

    def forward(self, x: Tensor[N, L, D], c: Tensor[N, D]) -> Tensor[N, L, D]:
        shift_msa, scale_msa, gate_msa, shift_mlp, scale_mlp, gate_mlp = self.adaLN_modulation(c).chunk(6, dim=-1)
        x = x + gate_msa.unsqueeze(1) * self.attn(modulate(self.norm1(x), shift_msa, scale_msa))
        x = x + gate_mlp.unsqueeze(1) * self.mlp(modulate(self.norm2(x), shift_mlp, scale_mlp))
        return x


@checked
class FinalLayer(nn.Module, Generic[D, P, C]):
    def __init__(self, hidden: Dim[D], patch: Dim[P], out_channels: Dim[C]) -> None:
        super().__init__()
        self.norm_final = nn.LayerNorm(hidden, elementwise_affine=False, eps=1e-6)
        self.linear = nn.Linear(hidden, patch * patch * out_channels)
        self.adaLN_modulation = nn.Sequential(nn.SiLU(), nn.Linear(hidden, 2 * hidden))

    def forward(self, x: Tensor[N, L, D], c: Tensor[N, D]) -> Tensor[N, L, "P*P*C"]:
        shift, scale = self.adaLN_modulation(c).chunk(2, dim=1)
        return self.linear(modulate(self.norm_final(x), shift, scale))


@checked
class DiT(nn.Module, Generic[C, D, Hh, P, K]):
    def __init__(
        self,
        in_channels: Dim[C],
        hidden: Dim[D],
        heads: Dim[Hh],
        patch: Dim[P],
        num_classes: Dim[K],
        depth: int,
        input_size: int,
    ) -> None:
        super().__init__()
        self.in_channels = in_channels
        self.patch = patch
        self.x_embedder = nn.Conv2d(in_channels, hidden, kernel_size=patch, stride=patch)
        self.t_embedder = TimestepEmbedder(hidden, 256)
        self.y_embedder = nn.Embedding(num_classes + 1, hidden)  # the extra class is "no label" (CFG dropout)
        num_patches = (input_size // patch) ** 2
        self.pos_embed = nn.Parameter(torch.zeros(1, num_patches, hidden))
        self.blocks = nn.ModuleList([DiTBlock(hidden, heads) for _ in range(depth)])
        self.final_layer = FinalLayer(hidden, patch, in_channels)
        for block in self.blocks:  # adaLN-zero: every block starts as the identity
            modulation = block.adaLN_modulation[-1]
            assert isinstance(modulation, nn.Linear)
            nn.init.zeros_(modulation.weight)
            nn.init.zeros_(modulation.bias)

    def patchify(self, x: Tensor[N, C, Hi, Wi]) -> Tensor[N, "(Hi//P)*(Wi//P)", D]:
        return self.x_embedder(x).flatten(2).transpose(1, 2)

    def unpatchify(self, x: Tensor[N, "Hp*Wp", "P*P*C"], h: Dim[Hp], w: Dim[Wp]) -> Tensor[N, C, "Hp*P", "Wp*P"]:
        p, c = self.patch, self.in_channels
        x = x.reshape(x.shape[0], h, w, p, p, c)
        x = torch.einsum("nhwpqc->nchpwq", x)
        return x.reshape(x.shape[0], c, h * p, w * p)

    def forward(self, x: Tensor[N, C, Hi, Wi], t: Tensor[N], y: Tensor[N]) -> Tensor[N, C, Hi, Wi]:
        _, _, height, width = x.shape
        x = self.patchify(x) + self.pos_embed
        c = self.t_embedder(t) + self.y_embedder(y)
        for block in self.blocks:
            x = block(x, c)
        x = self.final_layer(x, c)
        return self.unpatchify(x, height // self.patch, width // self.patch)


def demo() -> None:
    model = DiT(in_channels=4, hidden=32, heads=4, patch=2, num_classes=10, depth=2, input_size=8)
    x = torch.randn(3, 4, 8, 8)
    t = torch.randint(0, 1000, (3,))
    y = torch.randint(0, 10, (3,))
    out = model(x, t, y)
    assert out.shape == x.shape
    F.mse_loss(out, torch.randn_like(x)).backward()
