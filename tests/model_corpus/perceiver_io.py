"""Perceiver IO, the way lucidrains/perceiver-pytorch writes it: a learned latent array repeated over
the batch, cross-attention from the latents into the inputs (to_q / to_kv with `.chunk(2, dim=-1)`,
einops head split), a self-attention tower over the latents, and a decoder whose output queries
cross-attend into the latents (here with `nn.MultiheadAttention(kdim=, vdim=)`).
"""

from __future__ import annotations

import math
from typing import Generic, Optional, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")  # query positions
M = TypeVar("M")  # context positions
D = TypeVar("D")  # query width
Dc = TypeVar("Dc")  # context width
L = TypeVar("L")  # number of latents
Dl = TypeVar("Dl")  # latent width
Dq = TypeVar("Dq")  # output query width
O = TypeVar("O")  # logits
Nq = TypeVar("Nq")  # output queries


def exists(val: object) -> bool:
    return val is not None


class GEGLU(nn.Module):
    def forward(self, x: Tensor[B, N, "2*D"]) -> Tensor[B, N, D]:
        x, gates = x.chunk(2, dim=-1)
        return x * F.gelu(gates)


@checked
class FeedForward(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], mult: int = 4) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(dim, dim * mult * 2), GEGLU(), nn.Linear(dim * mult, dim))

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        return self.net(x)


@checked
class Attention(nn.Module, Generic[D, Dc]):
    def __init__(self, query_dim: Dim[D], context_dim: Dim[Dc], heads: int = 8, dim_head: int = 64) -> None:
        super().__init__()
        inner_dim = dim_head * heads
        self.scale = dim_head**-0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(context_dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(
        self, x: Tensor[B, N, D], context: Tensor[B, M, Dc], mask: Optional[Tensor[B, M]] = None
    ) -> Tensor[B, N, D]:
        h = self.heads
        q = self.to_q(x)
        k, v = self.to_kv(context).chunk(2, dim=-1)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> (b h) n d", h=h), (q, k, v))
        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        if mask is not None:
            max_neg_value = -torch.finfo(sim.dtype).max
            mask_ = repeat(mask, "b j -> (b h) () j", h=h)
            sim = sim.masked_fill(~mask_, max_neg_value)
        attn = sim.softmax(dim=-1)
        out = einsum("b i j, b j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=h)
        return self.to_out(out)


@checked
class SelfAttention(nn.Module, Generic[D]):
    """The latent tower's attention: to_qkv, heads split with rearrange 'b n (h d) -> b h n d'."""

    def __init__(self, dim: Dim[D], heads: int = 8, dim_head: int = 64) -> None:
        super().__init__()
        inner_dim = heads * dim_head
        self.heads = heads
        self.norm = nn.LayerNorm(dim)
        self.to_qkv = nn.Linear(dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        x = self.norm(x)
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q = rearrange(q, "b n (h d) -> b h n d", h=self.heads)
        k = rearrange(k, "b n (h d) -> b h n d", h=self.heads)
        v = rearrange(v, "b n (h d) -> b h n d", h=self.heads)
        out = F.scaled_dot_product_attention(q, k, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


@checked
class PerceiverIO(nn.Module, Generic[Dc, L, Dl, Dq, O]):
    def __init__(
        self,
        *,
        depth: int,
        dim: Dim[Dc],
        queries_dim: Dim[Dq],
        logits_dim: Dim[O],
        num_latents: Dim[L],
        latent_dim: Dim[Dl],
        cross_heads: int = 1,
        latent_heads: int = 8,
        cross_dim_head: int = 64,
        latent_dim_head: int = 64,
    ) -> None:
        super().__init__()
        self.latents = nn.Parameter(torch.randn(num_latents, latent_dim))
        self.norm_latents = nn.LayerNorm(latent_dim)
        self.norm_context = nn.LayerNorm(dim)
        self.cross_attn = Attention(latent_dim, dim, heads=cross_heads, dim_head=cross_dim_head)
        self.cross_ff = FeedForward(latent_dim)
        self.layers = nn.ModuleList(
            [
                nn.ModuleList([SelfAttention(latent_dim, latent_heads, latent_dim_head), FeedForward(latent_dim)])
                for _ in range(depth)
            ]
        )
        self.decoder_norm = nn.LayerNorm(queries_dim)
        self.decoder_cross_attn = nn.MultiheadAttention(
            queries_dim, cross_heads, kdim=latent_dim, vdim=latent_dim, batch_first=True
        )
        self.decoder_ff = FeedForward(queries_dim)
        self.to_logits = nn.Linear(queries_dim, logits_dim)

    def encode(self, data: Tensor[B, M, Dc], mask: Optional[Tensor[B, M]] = None) -> Tensor[B, L, Dl]:
        b = data.shape[0]
        x = repeat(self.latents, "n d -> b n d", b=b)
        x = self.cross_attn(self.norm_latents(x), context=self.norm_context(data), mask=mask) + x
        x = self.cross_ff(x) + x
        for self_attn, self_ff in self.layers:
            x = self_attn(x) + x
            x = self_ff(x) + x
        return x

    def forward(
        self, data: Tensor[B, M, Dc], queries: Tensor[Nq, Dq], mask: Optional[Tensor[B, M]] = None
    ) -> Tensor[B, Nq, O]:
        b = data.shape[0]
        x = self.encode(data, mask)
        q = queries.unsqueeze(0).expand(b, -1, -1)
        latents, _ = self.decoder_cross_attn(self.decoder_norm(q), x, x, need_weights=False)
        latents = latents + self.decoder_ff(latents)
        return self.to_logits(latents)


def demo() -> None:
    model = PerceiverIO(
        depth=2, dim=12, queries_dim=20, logits_dim=7, num_latents=6, latent_dim=16,
        cross_heads=2, latent_heads=4, cross_dim_head=8, latent_dim_head=4,
    )
    data = torch.randn(3, 10, 12)
    lengths = torch.tensor([10, 5, 7])
    mask = torch.arange(10)[None, :] < lengths[:, None]
    queries = torch.randn(9, 20)
    x = model.encode(data, mask)
    print("latents", x.shape)
    assert x.shape == (3, 6, 16)
    logits = model(data, queries, mask)
    print("logits", logits.shape)
    assert logits.shape == (3, 9, 7)
    logits.sum().backward()


Hh = TypeVar("Hh")
Ww = TypeVar("Ww")
Ch = TypeVar("Ch")
Nb = TypeVar("Nb")


def fourier_encode(x: Tensor[Hh, Ww, 2], max_freq: float, num_bands: Dim[Nb]) -> Tensor[Hh, Ww, 2, "2*Nb+1"]:
    """perceiver-pytorch's fourier_encode, with its `scales[(*((None,) * (len(x.shape) - 1)), Ellipsis)]`."""
    x = x.unsqueeze(-1)
    device, dtype, orig_x = x.device, x.dtype, x
    scales = torch.linspace(1.0, max_freq / 2, num_bands, device=device, dtype=dtype)
    scales = scales[(*((None,) * (len(x.shape) - 1)), Ellipsis)]
    x = x * scales * math.pi
    x = torch.cat([x.sin(), x.cos()], dim=-1)
    x = torch.cat((x, orig_x), dim=-1)
    return x


@checked
class FourierInput(nn.Module, Generic[Nb]):
    """The classic Perceiver's input side: pixel positions in [-1, 1], Fourier features, concatenated
    to the data channels, then flattened to a sequence with `rearrange(data, 'b ... d -> b (...) d')`."""

    def __init__(self, max_freq: float, num_freq_bands: Dim[Nb]) -> None:
        super().__init__()
        self.max_freq = max_freq
        self.num_freq_bands = num_freq_bands

    def forward(self, data: Tensor[B, Hh, Ww, Ch]) -> Tensor[B, "Hh*Ww", "Ch+2*(2*Nb+1)"]:
        b, *axis, _, device, dtype = *data.shape, data.device, data.dtype
        axis_pos = list(map(lambda size: torch.linspace(-1.0, 1.0, steps=size, device=device, dtype=dtype), axis))
        pos = torch.stack(torch.meshgrid(*axis_pos, indexing="ij"), dim=-1)
        enc_pos = fourier_encode(pos, self.max_freq, self.num_freq_bands)
        enc_pos = rearrange(enc_pos, "... n d -> ... (n d)")
        enc_pos = repeat(enc_pos, "... -> b ...", b=b)
        data = torch.cat((data, enc_pos), dim=-1)
        data = rearrange(data, "b ... d -> b (...) d")
        return data


@checked
class PerceiverClassifier(nn.Module, Generic[Ch, Nb, O]):
    def __init__(self, channels: Dim[Ch], num_freq_bands: Dim[Nb], num_classes: Dim[O]) -> None:
        super().__init__()
        self.fourier = FourierInput(10.0, num_freq_bands)
        input_dim = channels + 2 * (2 * num_freq_bands + 1)
        self.io = PerceiverIO(depth=1, dim=input_dim, queries_dim=16, logits_dim=num_classes, num_latents=4,
                              latent_dim=16, cross_heads=1, latent_heads=2, cross_dim_head=8, latent_dim_head=8)
        self.cls_query = nn.Parameter(torch.randn(1, 16))

    def forward(self, img: Tensor[B, Hh, Ww, Ch]) -> Tensor[B, O]:
        data = self.fourier(img)
        logits = self.io(data, self.cls_query)
        return logits.squeeze(1)


def demo_fourier() -> None:
    enc = FourierInput(10.0, 3)
    img = torch.randn(2, 5, 7, 4)
    out = enc(img)
    print("fourier", out.shape)
    assert out.shape == (2, 35, 4 + 2 * 7)
    clf = PerceiverClassifier(4, 3, 10)
    assert clf(img).shape == (2, 10)


if __name__ == "__main__":
    demo()
    demo_fourier()
