"""Stable-Diffusion-style UNet (ldm/modules/diffusionmodules/openaimodel.py + ldm/modules/attention.py).

ResBlock with GroupNorm + SiLU + timestep embedding added as emb[:, :, None, None], a SpatialTransformer
with self- and cross-attention to a text context (einops rearrange in and out of tokens), Downsample with a
stride-2 conv, Upsample with F.interpolate(scale_factor=2.0, mode="nearest"), skips concatenated on
channels, sinusoidal timestep embedding with an odd-dim zero pad.
"""

from __future__ import annotations

import math
from typing import Any, Generic, Optional, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange
from torch import einsum, nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
N = TypeVar("N")  # query tokens
M = TypeVar("M")  # context tokens
C = TypeVar("C")  # channels
O = TypeVar("O")  # noqa: E741 - output channels
E = TypeVar("E")  # time embedding width
Cd = TypeVar("Cd")  # context width
Q = TypeVar("Q")  # query width
Hh = TypeVar("Hh")  # heads
Dh = TypeVar("Dh")  # head width
Di = TypeVar("Di")  # feed-forward inner width
T = TypeVar("T")  # timestep embedding width


def exists(val: Any) -> bool:
    return val is not None


def default(val, d):  # type: ignore[no-untyped-def]
    return val if exists(val) else d


ModT = TypeVar("ModT", bound=nn.Module)


def zero_module(module: ModT) -> ModT:
    for p in module.parameters():
        p.detach().zero_()
    return module


def normalization(channels: int) -> nn.GroupNorm:
    return nn.GroupNorm(min(32, channels), channels, eps=1e-6, affine=True)


def timestep_embedding(timesteps: Tensor[B], dim: Dim[T], max_period: int = 10000) -> Tensor[B, T]:
    half = dim // 2
    freqs = torch.exp(-math.log(max_period) * torch.arange(start=0, end=half, dtype=torch.float32) / half)
    args = timesteps[:, None].float() * freqs[None]
    embedding = torch.cat([torch.cos(args), torch.sin(args)], dim=-1)
    if dim % 2:
        embedding = torch.cat([embedding, torch.zeros_like(embedding[:, :1])], dim=-1)
    return embedding


# ----------------------------------------------------------------------------------------- attention


@checked
class GEGLU(nn.Module, Generic[Q, Di]):
    def __init__(self, dim_in: Dim[Q], dim_out: Dim[Di]) -> None:
        super().__init__()
        self.proj = nn.Linear(dim_in, dim_out * 2)

    def forward(self, x: Tensor[B, N, Q]) -> Tensor[B, N, Di]:
        x, gate = self.proj(x).chunk(2, dim=-1)
        return x * F.gelu(gate)


@checked
class FeedForward(nn.Module, Generic[Q]):
    def __init__(self, dim: Dim[Q], mult: int = 4, dropout: float = 0.0) -> None:
        super().__init__()
        inner_dim = int(dim * mult)
        self.net = nn.Sequential(GEGLU(dim, inner_dim), nn.Dropout(dropout), nn.Linear(inner_dim, dim))

    def forward(self, x: Tensor[B, N, Q]) -> Tensor[B, N, Q]:
        return self.net(x)


@checked
class CrossAttention(nn.Module, Generic[Q, Cd, Hh, Dh]):
    def __init__(self, query_dim: Dim[Q], context_dim: Dim[Cd], heads: Dim[Hh], dim_head: Dim[Dh],
                 dropout: float = 0.0) -> None:
        super().__init__()
        inner_dim = dim_head * heads
        self.scale = dim_head**-0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_k = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_v = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_out = nn.Sequential(nn.Linear(inner_dim, query_dim), nn.Dropout(dropout))

    def forward(self, x: Tensor[B, N, Q], context: Tensor[B, M, Cd],
                mask: Optional[Tensor[B, M]] = None) -> Tensor[B, N, Q]:
        h = self.heads
        q = self.to_q(x)
        k = self.to_k(context)
        v = self.to_v(context)
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> (b h) n d", h=h), (q, k, v))
        sim = einsum("b i d, b j d -> b i j", q, k) * self.scale
        if exists(mask):
            assert mask is not None
            mask = rearrange(mask, "b ... -> b (...)")
            max_neg_value = -torch.finfo(sim.dtype).max
            mask = mask[:, None, :].repeat_interleave(h, dim=0)
            sim.masked_fill_(~mask, max_neg_value)
        attn = sim.softmax(dim=-1)
        out = einsum("b i j, b j d -> b i d", attn, v)
        out = rearrange(out, "(b h) n d -> b n (h d)", h=h)
        return self.to_out(out)


@checked
class SelfAttention(nn.Module, Generic[Q, Hh, Dh]):
    """Same as CrossAttention, attending to x itself (ldm's attn1), written with rearrange on q/k/v
    one at a time and F.scaled_dot_product_attention."""

    def __init__(self, query_dim: Dim[Q], heads: Dim[Hh], dim_head: Dim[Dh]) -> None:
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.to_qkv = nn.Linear(query_dim, inner_dim * 3, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(self, x: Tensor[B, N, Q]) -> Tensor[B, N, Q]:
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q = rearrange(q, "b n (h d) -> b h n d", h=self.heads)
        k = rearrange(k, "b n (h d) -> b h n d", h=self.heads)
        v = rearrange(v, "b n (h d) -> b h n d", h=self.heads)
        out = F.scaled_dot_product_attention(q, k, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


@checked
class BasicTransformerBlock(nn.Module, Generic[Q, Cd]):
    def __init__(self, dim: Dim[Q], n_heads: int, d_head: int, context_dim: Dim[Cd], dropout: float = 0.0) -> None:
        super().__init__()
        self.attn1 = SelfAttention(dim, n_heads, d_head)
        self.ff = FeedForward(dim, dropout=dropout)
        self.attn2 = CrossAttention(query_dim=dim, context_dim=context_dim, heads=n_heads, dim_head=d_head,
                                    dropout=dropout)
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.norm3 = nn.LayerNorm(dim)

    def forward(self, x: Tensor[B, N, Q], context: Tensor[B, M, Cd]) -> Tensor[B, N, Q]:
        x = self.attn1(self.norm1(x)) + x
        x = self.attn2(self.norm2(x), context=context) + x
        x = self.ff(self.norm3(x)) + x
        return x


@checked
class SpatialTransformer(nn.Module, Generic[C, Hh, Dh, Cd]):
    def __init__(self, in_channels: Dim[C], n_heads: Dim[Hh], d_head: Dim[Dh], context_dim: Dim[Cd],
                 depth: int = 1, dropout: float = 0.0) -> None:
        super().__init__()
        self.in_channels = in_channels
        inner_dim = n_heads * d_head
        self.norm = nn.GroupNorm(num_groups=min(32, in_channels), num_channels=in_channels, eps=1e-6)
        self.proj_in = nn.Conv2d(in_channels, inner_dim, kernel_size=1, stride=1, padding=0)
        self.transformer_blocks = nn.ModuleList(
            [BasicTransformerBlock(inner_dim, n_heads, d_head, context_dim=context_dim, dropout=dropout)
             for _ in range(depth)]
        )
        self.proj_out = zero_module(nn.Conv2d(inner_dim, in_channels, kernel_size=1, stride=1, padding=0))

    def forward(self, x: Tensor[B, C, H, W], context: Tensor[B, M, Cd]) -> Tensor[B, C, H, W]:
        b, c, h, w = x.shape
        x_in = x
        x = self.norm(x)
        x = self.proj_in(x)
        x = rearrange(x, "b c h w -> b (h w) c")
        for block in self.transformer_blocks:
            x = block(x, context=context)
        x = rearrange(x, "b (h w) c -> b c h w", h=h, w=w)
        x = self.proj_out(x)
        return x + x_in


# ----------------------------------------------------------------------------------------- conv blocks


class TimestepBlock(nn.Module):
    """Any module whose forward() takes timestep embeddings as a second argument."""


@checked
class ResBlock(TimestepBlock, Generic[C, E, O]):
    def __init__(self, channels: Dim[C], emb_channels: Dim[E], dropout: float, out_channels: Dim[O]) -> None:
        super().__init__()
        self.channels = channels
        self.out_channels = out_channels
        self.in_layers = nn.Sequential(
            normalization(channels),
            nn.SiLU(),
            nn.Conv2d(channels, out_channels, 3, padding=1),
        )
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_channels, out_channels))
        self.out_norm = nn.GroupNorm(min(32, out_channels), out_channels, eps=1e-6)
        self.out_layers = nn.Sequential(
            nn.SiLU(),
            nn.Dropout(p=dropout),
            zero_module(nn.Conv2d(out_channels, out_channels, 3, padding=1)),
        )
        if out_channels == channels:
            self.skip_connection: nn.Module = nn.Identity()
        else:
            self.skip_connection = nn.Conv2d(channels, out_channels, 1)

    def forward(self, x: Tensor[B, C, H, W], emb: Tensor[B, E]) -> Tensor[B, O, H, W]:
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb).type(h.dtype)
        h = h + emb_out[:, :, None, None]
        h = self.out_norm(h)
        h = self.out_layers(h)
        return self.skip_connection(x) + h


@checked
class ScaleShiftResBlock(TimestepBlock, Generic[C, E]):
    """use_scale_shift_norm=True variant: the embedding gives a scale and a shift, out_channels == channels."""

    def __init__(self, channels: Dim[C], emb_channels: Dim[E]) -> None:
        super().__init__()
        self.in_layers = nn.Sequential(normalization(channels), nn.SiLU(), nn.Conv2d(channels, channels, 3, padding=1))
        self.emb_layers = nn.Sequential(nn.SiLU(), nn.Linear(emb_channels, 2 * channels))
        self.out_norm = nn.GroupNorm(min(32, channels), channels)
        self.out_rest = nn.Sequential(nn.SiLU(), nn.Conv2d(channels, channels, 3, padding=1))

    def forward(self, x: Tensor[B, C, H, W], emb: Tensor[B, E]) -> Tensor[B, C, H, W]:
        h = self.in_layers(x)
        emb_out = self.emb_layers(emb).type(h.dtype)
        while len(emb_out.shape) < len(h.shape):
            emb_out = emb_out[..., None]
        scale, shift = torch.chunk(emb_out, 2, dim=1)
        h = self.out_norm(h) * (1 + scale) + shift
        h = self.out_rest(h)
        return x + h


@checked
class Downsample(nn.Module, Generic[C, O]):
    def __init__(self, channels: Dim[C], out_channels: Dim[O]) -> None:
        super().__init__()
        self.op = nn.Conv2d(channels, out_channels, 3, stride=2, padding=1)

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, O, "H//2", "W//2"]:
        y = self.op(x)
        return y


@checked
class Upsample(nn.Module, Generic[C, O]):
    def __init__(self, channels: Dim[C], out_channels: Dim[O]) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, out_channels, 3, padding=1)

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, O, "2*H", "2*W"]:
        x = F.interpolate(x, scale_factor=2.0, mode="nearest")
        x = self.conv(x)
        return x


class TimestepEmbedSequential(nn.Sequential, TimestepBlock):
    """A sequential module that passes timestep embeddings (and the context) to the children that take them."""

    def forward(self, x: Tensor, emb: Tensor, context: Optional[Tensor] = None) -> Tensor:  # type: ignore[override]
        for layer in self:
            if isinstance(layer, TimestepBlock):
                x = layer(x, emb)
            elif isinstance(layer, SpatialTransformer):
                assert context is not None
                x = layer(x, context)
            else:
                x = layer(x)
        return x


# ----------------------------------------------------------------------------------------- UNets


@checked
class TinyUNet(nn.Module, Generic[C, Cd]):
    """Two levels written out by hand, so every size is a type: the skips are concatenated on channels."""

    def __init__(self, model_channels: Dim[C], context_dim: Dim[Cd], in_channels: int = 4) -> None:
        super().__init__()
        self.model_channels = model_channels
        time_embed_dim = model_channels * 4
        self.time_embed = nn.Sequential(
            nn.Linear(model_channels, time_embed_dim), nn.SiLU(), nn.Linear(time_embed_dim, time_embed_dim)
        )
        self.conv_in = nn.Conv2d(in_channels, model_channels, 3, padding=1)
        self.res1 = ResBlock(model_channels, time_embed_dim, 0.0, model_channels)
        self.attn1 = SpatialTransformer(model_channels, 2, model_channels // 2, context_dim)
        self.down = Downsample(model_channels, model_channels)
        self.res2 = ResBlock(model_channels, time_embed_dim, 0.0, 2 * model_channels)
        self.attn2 = SpatialTransformer(2 * model_channels, 2, model_channels, context_dim)
        self.mid = ScaleShiftResBlock(2 * model_channels, time_embed_dim)
        self.out_res2 = ResBlock(4 * model_channels, time_embed_dim, 0.0, 2 * model_channels)
        self.up = Upsample(2 * model_channels, 2 * model_channels)
        self.out_res1 = ResBlock(3 * model_channels, time_embed_dim, 0.0, model_channels)
        self.out_attn1 = SpatialTransformer(model_channels, 2, model_channels // 2, context_dim)
        self.out = nn.Sequential(
            nn.GroupNorm(min(32, model_channels), model_channels),
            nn.SiLU(),
            nn.Conv2d(model_channels, in_channels, 3, padding=1),
        )

    def forward(self, x: Tensor[B, 4, H, W], timesteps: Tensor[B], context: Tensor[B, M, Cd]) -> Tensor[B, 4, H, W]:
        t_emb = timestep_embedding(timesteps, self.model_channels)
        emb = self.time_embed(t_emb)
        hs = []
        h = self.conv_in(x)
        h = self.attn1(self.res1(h, emb), context)
        hs.append(h)
        h = self.down(h)
        h = self.attn2(self.res2(h, emb), context)
        hs.append(h)
        h = self.mid(h, emb)
        h = torch.cat([h, hs.pop()], dim=1)
        h = self.out_res2(h, emb)
        h = self.up(h)
        h = torch.cat([h, hs.pop()], dim=1)
        h = self.out_attn1(self.out_res1(h, emb), context)
        return self.out(h)


class UNetModel(nn.Module):
    """openaimodel.UNetModel, trimmed: the block lists are built in loops from plain-int hyperparameters."""

    def __init__(self, in_channels: int, model_channels: int, out_channels: int, num_res_blocks: int,
                 attention_resolutions: tuple[int, ...], channel_mult: tuple[int, ...] = (1, 2, 4),
                 num_head_channels: int = 8, context_dim: int = 24, dropout: float = 0.0) -> None:
        super().__init__()
        self.model_channels = model_channels
        time_embed_dim = model_channels * 4
        self.time_embed = nn.Sequential(
            nn.Linear(model_channels, time_embed_dim), nn.SiLU(), nn.Linear(time_embed_dim, time_embed_dim)
        )
        self.input_blocks = nn.ModuleList(
            [TimestepEmbedSequential(nn.Conv2d(in_channels, model_channels, 3, padding=1))]
        )
        input_block_chans = [model_channels]
        ch = model_channels
        ds = 1
        for level, mult in enumerate(channel_mult):
            for _ in range(num_res_blocks):
                layers: list[nn.Module] = [ResBlock(ch, time_embed_dim, dropout, out_channels=mult * model_channels)]
                ch = mult * model_channels
                if ds in attention_resolutions:
                    num_heads = ch // num_head_channels
                    layers.append(SpatialTransformer(ch, num_heads, num_head_channels, context_dim=context_dim))
                self.input_blocks.append(TimestepEmbedSequential(*layers))
                input_block_chans.append(ch)
            if level != len(channel_mult) - 1:
                self.input_blocks.append(TimestepEmbedSequential(Downsample(ch, ch)))
                input_block_chans.append(ch)
                ds *= 2
        self.middle_block = TimestepEmbedSequential(
            ResBlock(ch, time_embed_dim, dropout, ch),
            SpatialTransformer(ch, ch // num_head_channels, num_head_channels, context_dim=context_dim),
            ResBlock(ch, time_embed_dim, dropout, ch),
        )
        self.output_blocks = nn.ModuleList([])
        for level, mult in list(enumerate(channel_mult))[::-1]:
            for i in range(num_res_blocks + 1):
                ich = input_block_chans.pop()
                layers = [ResBlock(ch + ich, time_embed_dim, dropout, out_channels=model_channels * mult)]
                ch = model_channels * mult
                if ds in attention_resolutions:
                    layers.append(SpatialTransformer(ch, ch // num_head_channels, num_head_channels,
                                                     context_dim=context_dim))
                if level and i == num_res_blocks:
                    layers.append(Upsample(ch, ch))
                    ds //= 2
                self.output_blocks.append(TimestepEmbedSequential(*layers))
        self.out = nn.Sequential(
            normalization(ch), nn.SiLU(), zero_module(nn.Conv2d(model_channels, out_channels, 3, padding=1))
        )

    def forward(self, x: Tensor[B, C, H, W], timesteps: Tensor[B], context: Tensor[B, M, Cd]) -> Tensor:
        hs = []
        t_emb = timestep_embedding(timesteps, self.model_channels)
        emb = self.time_embed(t_emb)
        h = x.type(torch.float32)
        for module in self.input_blocks:
            h = module(h, emb, context)
            hs.append(h)
        h = self.middle_block(h, emb, context)
        for module in self.output_blocks:
            h = torch.cat([h, hs.pop()], dim=1)
            h = module(h, emb, context)
        h = h.type(x.dtype)
        return self.out(h)


def demo() -> None:
    torch.manual_seed(0)
    e = timestep_embedding(torch.arange(5), 7)
    print("odd timestep emb", e.shape)
    assert e.shape == (5, 7)
    tiny = TinyUNet(model_channels=8, context_dim=12)
    x = torch.randn(2, 4, 8, 12)
    t = torch.randint(0, 1000, (2,))
    ctx = torch.randn(2, 5, 12)
    out = tiny(x, t, ctx)
    print("tiny", out.shape)
    assert out.shape == x.shape
    model = UNetModel(in_channels=4, model_channels=32, out_channels=4, num_res_blocks=1,
                      attention_resolutions=(2, 4), channel_mult=(1, 2, 2), num_head_channels=8, context_dim=24)
    x = torch.randn(2, 4, 16, 24)
    ctx = torch.randn(2, 7, 24)
    out2 = model(x, t, ctx)
    print("unet", out2.shape)
    assert out2.shape == x.shape
    F.mse_loss(out2, torch.randn_like(x)).backward()
    # mask path of cross-attention
    ca = CrossAttention(16, 24, 2, 8)
    m = torch.ones(2, 7, dtype=torch.bool)
    m[:, -2:] = False
    print("masked xattn", ca(torch.randn(2, 9, 16), ctx, m).shape)


if __name__ == "__main__":
    demo()
