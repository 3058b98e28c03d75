"""MLP-Mixer (timm style: Conv2d patch embedding, flatten(2).transpose(1, 2), token-mixing MLP on
the transposed tensor, channel-mixing MLP) plus the lucidrains einops variant, and ConvMixer
(depthwise conv with padding="same" inside a residual, pointwise conv, GELU + BatchNorm).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Generic, TypeVar

import torch
import torch.nn.functional as F
from einops import rearrange
from einops.layers.torch import Rearrange, Reduce
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
N = TypeVar("N")  # tokens
D = TypeVar("D")  # channels / hidden dim
Dt = TypeVar("Dt")  # token-mixing hidden
Dc = TypeVar("Dc")  # channel-mixing hidden
H = TypeVar("H")
W = TypeVar("W")
P = TypeVar("P")
K = TypeVar("K")
I = TypeVar("I")  # noqa: E741
O = TypeVar("O")  # noqa: E741


@dataclass(frozen=True)
class MixerConfig:
    img_size: int = 32
    patch: int = 4
    in_chans: int = 3
    dim: int = 64
    depth: int = 2
    token_mlp_ratio: float = 0.5
    channel_mlp_ratio: float = 4.0
    num_classes: int = 10


@checked
class Mlp(nn.Module, Generic[I, D, O]):
    def __init__(self, in_features: Dim[I], hidden: Dim[D], out_features: Dim[O], drop: float = 0.0) -> None:
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.act = nn.GELU()
        self.drop1 = nn.Dropout(drop)
        self.fc2 = nn.Linear(hidden, out_features)
        self.drop2 = nn.Dropout(drop)

    def forward(self, x: Tensor[B, N, I]) -> Tensor[B, N, O]:
        x = self.fc1(x)
        x = self.act(x)
        x = self.drop1(x)
        x = self.fc2(x)
        return self.drop2(x)


@checked
class PatchEmbed(nn.Module, Generic[D, P]):
    def __init__(self, in_chans: int, embed_dim: Dim[D], patch: Dim[P]) -> None:
        super().__init__()
        self.proj = nn.Conv2d(in_chans, embed_dim, kernel_size=patch, stride=patch)
        self.norm = nn.LayerNorm(embed_dim)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, "(H//P)*(W//P)", D]:
        x = self.proj(x)
        x = x.flatten(2)
        x = x.transpose(1, 2)  # BCHW -> BNC
        return self.norm(x)


@checked
class MixerBlock(nn.Module, Generic[N, D, Dt, Dc]):
    def __init__(self, dim: Dim[D], seq_len: Dim[N], tokens_dim: Dim[Dt], channels_dim: Dim[Dc]) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp_tokens = Mlp(seq_len, tokens_dim, seq_len)
        self.norm2 = nn.LayerNorm(dim, eps=1e-6)
        self.mlp_channels = Mlp(dim, channels_dim, dim)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        y = self.norm1(x).transpose(1, 2)
        y = self.mlp_tokens(y)
        x = x + y.transpose(1, 2)
        x = x + self.mlp_channels(self.norm2(x))
        return x


class MlpMixer(nn.Module):
    def __init__(self, cfg: MixerConfig) -> None:
        super().__init__()
        self.stem = PatchEmbed(cfg.in_chans, cfg.dim, cfg.patch)
        num_patches = (cfg.img_size // cfg.patch) ** 2
        tok = int(cfg.token_mlp_ratio * cfg.dim)
        ch = int(cfg.channel_mlp_ratio * cfg.dim)
        self.blocks = nn.Sequential(*[MixerBlock(cfg.dim, num_patches, tok, ch) for _ in range(cfg.depth)])
        self.norm = nn.LayerNorm(cfg.dim, eps=1e-6)
        self.head = nn.Linear(cfg.dim, cfg.num_classes)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, K]:
        x = self.stem(x)
        x = self.blocks(x)
        x = self.norm(x)
        x = x.mean(dim=1)
        return self.head(x)


@checked
class TinyMixer(nn.Module, Generic[D, K]):
    """Concrete 32x32 images, 4x4 patches: N = 64."""

    def __init__(self, dim: Dim[D], num_classes: Dim[K]) -> None:
        super().__init__()
        self.stem = PatchEmbed(3, dim, 4)
        self.block = MixerBlock(dim, 64, 32, dim * 4)
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x: Tensor[B, 3, 32, 32]) -> Tensor[B, K]:
        x = self.stem(x)
        x = self.block(x)
        x = self.norm(x).mean(1)
        return self.head(x)


# ---------- lucidrains-style MLP-Mixer with einops ----------

class PreNormResidual(nn.Module):
    def __init__(self, dim: int, fn: nn.Module) -> None:
        super().__init__()
        self.fn = fn
        self.norm = nn.LayerNorm(dim)

    def forward(self, x: Tensor[B, N, D]) -> Tensor[B, N, D]:
        return self.fn(self.norm(x)) + x


def FeedForward(dim: int, expansion_factor: float = 4, dropout: float = 0.0,
                dense: Callable[..., nn.Module] = nn.Linear) -> nn.Sequential:
    inner_dim = int(dim * expansion_factor)
    return nn.Sequential(
        dense(dim, inner_dim),
        nn.GELU(),
        nn.Dropout(dropout),
        dense(inner_dim, dim),
        nn.Dropout(dropout),
    )


def MLPMixerEinops(*, image_size: int, channels: int, patch_size: int, dim: int, depth: int, num_classes: int,
                   expansion_factor: float = 4, expansion_factor_token: float = 0.5,
                   dropout: float = 0.0) -> nn.Sequential:
    num_patches = (image_size // patch_size) ** 2
    chan_first = lambda i, o: nn.Conv1d(i, o, kernel_size=1)  # noqa: E731
    chan_last = nn.Linear
    return nn.Sequential(
        Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=patch_size, p2=patch_size),
        nn.Linear((patch_size ** 2) * channels, dim),
        *[nn.Sequential(
            PreNormResidual(dim, FeedForward(num_patches, expansion_factor_token, dropout, chan_first)),
            PreNormResidual(dim, FeedForward(dim, expansion_factor, dropout, chan_last)),
        ) for _ in range(depth)],
        nn.LayerNorm(dim),
        Reduce("b n c -> b c", "mean"),
        nn.Linear(dim, num_classes),
    )


@checked
def patchify(img: Tensor[B, 3, H, W], p: Dim[P]) -> Tensor[B, "(H//P)*(W//P)", "P*P*3"]:
    out = rearrange(img, "b c (h p1) (w p2) -> b (h w) (p1 p2 c)", p1=p, p2=p)
    return out


@checked
def token_mix_einops(x: Tensor[B, N, D], w1: Tensor[Dt, N], w2: Tensor[N, Dt]) -> Tensor[B, N, D]:
    """Token mixing with the channel axis moved last, einops style."""
    y = rearrange(x, "b n d -> b d n")
    y = F.gelu(y @ w1.T) @ w2.T
    return x + rearrange(y, "b d n -> b n d")


# ---------- ConvMixer ----------

class Residual(nn.Module):
    def __init__(self, fn: nn.Module) -> None:
        super().__init__()
        self.fn = fn

    def forward(self, x: Tensor[B, D, H, W]) -> Tensor[B, D, H, W]:
        return self.fn(x) + x


def ConvMixer(dim: int, depth: int, kernel_size: int = 9, patch_size: int = 7, n_classes: int = 1000) -> nn.Sequential:
    return nn.Sequential(
        nn.Conv2d(3, dim, kernel_size=patch_size, stride=patch_size),
        nn.GELU(),
        nn.BatchNorm2d(dim),
        *[nn.Sequential(
            Residual(nn.Sequential(
                nn.Conv2d(dim, dim, kernel_size, groups=dim, padding="same"),
                nn.GELU(),
                nn.BatchNorm2d(dim),
            )),
            nn.Conv2d(dim, dim, kernel_size=1),
            nn.GELU(),
            nn.BatchNorm2d(dim),
        ) for _ in range(depth)],
        nn.AdaptiveAvgPool2d((1, 1)),
        nn.Flatten(),
        nn.Linear(dim, n_classes),
    )


@checked
class ConvMixerLayer(nn.Module, Generic[D]):
    def __init__(self, dim: Dim[D], kernel_size: int) -> None:
        super().__init__()
        self.dw = nn.Conv2d(dim, dim, kernel_size, groups=dim, padding="same")
        self.bn1 = nn.BatchNorm2d(dim)
        self.pw = nn.Conv2d(dim, dim, kernel_size=1)
        self.bn2 = nn.BatchNorm2d(dim)

    def forward(self, x: Tensor[B, D, H, W]) -> Tensor[B, D, H, W]:
        y = self.bn1(F.gelu(self.dw(x)))
        x = x + y
        x = self.bn2(F.gelu(self.pw(x)))
        return x


@checked
class TinyConvMixer(nn.Module, Generic[D, K]):
    def __init__(self, dim: Dim[D], depth: int, n_classes: Dim[K], patch: Dim[P], kernel_size: int = 5) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)
        self.bn = nn.BatchNorm2d(dim)
        self.layers = nn.ModuleList([ConvMixerLayer(dim, kernel_size) for _ in range(depth)])
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, K]:
        x = self.bn(F.gelu(self.stem(x)))
        for layer in self.layers:
            x = layer(x)
        x = F.adaptive_avg_pool2d(x, (1, 1))
        x = x.flatten(1)
        return self.head(x)


def demo() -> None:
    torch.manual_seed(0)
    cfg = MixerConfig()
    img = torch.randn(2, 3, 32, 32)
    m = MlpMixer(cfg)
    logits = m(img)
    assert logits.shape == (2, cfg.num_classes)
    F.cross_entropy(logits, torch.tensor([1, 2])).backward()

    tiny = TinyMixer(16, 5)
    print("tiny", tiny(img).shape)

    me = MLPMixerEinops(image_size=32, channels=3, patch_size=4, dim=32, depth=2, num_classes=10)
    print("einops mixer", me(img).shape)
    print("patchify", patchify(img, 8).shape)
    x = torch.randn(2, 16, 8)
    print("tokmix", token_mix_einops(x, torch.randn(6, 16), torch.randn(16, 6)).shape)

    cm = ConvMixer(32, 2, kernel_size=5, patch_size=4, n_classes=10)
    print("convmixer", cm(img).shape)
    tcm = TinyConvMixer(16, 2, 7, 4, kernel_size=5)
    print("tiny convmixer", tcm(img).shape)


if __name__ == "__main__":
    demo()
