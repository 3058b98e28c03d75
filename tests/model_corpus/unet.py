"""U-Net: the original encoder-decoder with skip connections concatenated on channels, and a small
diffusion-style U-Net whose levels are lists of modules built in a loop.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
H = TypeVar("H")
W = TypeVar("W")
I = TypeVar("I")  # noqa: E741 - input channels
O = TypeVar("O")  # noqa: E741 - output channels
C = TypeVar("C")  # base channels
K = TypeVar("K")  # output classes


@checked
class DoubleConv(nn.Module, Generic[I, O]):
    def __init__(self, in_ch: Dim[I], out_ch: Dim[O]) -> None:
        super().__init__()
        self.net = nn.Sequential(
            nn.Conv2d(in_ch, out_ch, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
            nn.Conv2d(out_ch, out_ch, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_ch),
            nn.ReLU(inplace=True),
        )

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, O, H, W]:
        return self.net(x)


@checked
class Down(nn.Module, Generic[I, O]):
    def __init__(self, in_ch: Dim[I], out_ch: Dim[O]) -> None:
        super().__init__()
        self.conv = DoubleConv(in_ch, out_ch)

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, O, "H//2", "W//2"]:
        return self.conv(F.max_pool2d(x, 2))


@checked
class Up(nn.Module, Generic[I, O]):
    """Upsample by 2 to half the channels, concatenate the skip (which has the other half), convolve."""

    def __init__(self, in_ch: Dim[I], out_ch: Dim[O]) -> None:
        super().__init__()
        self.up = nn.ConvTranspose2d(in_ch, in_ch // 2, kernel_size=2, stride=2)
        self.conv = DoubleConv(in_ch, out_ch)

    def forward(self, x: Tensor[B, I, H, W], skip: Tensor[B, "I//2", "2*H", "2*W"]) -> Tensor[B, O, "2*H", "2*W"]:
        x = self.up(x)
        x = torch.cat([skip, x], dim=1)
        return self.conv(x)


@checked
class UNet(nn.Module, Generic[C, K]):
    def __init__(self, base: Dim[C], num_classes: Dim[K]) -> None:
        super().__init__()
        self.inc = DoubleConv(3, base)
        self.down1 = Down(base, 2 * base)
        self.down2 = Down(2 * base, 4 * base)
        self.down3 = Down(4 * base, 8 * base)
        self.up1 = Up(8 * base, 4 * base)
        self.up2 = Up(4 * base, 2 * base)
        self.up3 = Up(2 * base, base)
        self.outc = nn.Conv2d(base, num_classes, kernel_size=1)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, K, H, W]:
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x4 = self.down3(x3)
        x = self.up1(x4, x3)
        x = self.up2(x, x2)
        x = self.up3(x, x1)
        return self.outc(x)


class ResBlock(nn.Module):
    def __init__(self, in_ch: int, out_ch: int, time_dim: int) -> None:
        super().__init__()
        self.norm1 = nn.GroupNorm(4, in_ch)
        self.conv1 = nn.Conv2d(in_ch, out_ch, 3, padding=1)
        self.time = nn.Linear(time_dim, out_ch)
        self.norm2 = nn.GroupNorm(4, out_ch)
        self.conv2 = nn.Conv2d(out_ch, out_ch, 3, padding=1)
        self.skip = nn.Conv2d(in_ch, out_ch, 1) if in_ch != out_ch else nn.Identity()

    def forward(self, x: Tensor[B, I, H, W], t: Tensor[B, Any]) -> Tensor[B, O, H, W]:
        h = self.conv1(F.silu(self.norm1(x)))
        h = h + self.time(t)[:, :, None, None]
        h = self.conv2(F.silu(self.norm2(h)))
        return h + self.skip(x)


class DiffusionUNet(nn.Module):
    """Channel multipliers from a plain list; the skips are pushed on a list going down, popped going up."""

    def __init__(self, base: int = 16, mults: tuple[int, ...] = (1, 2, 4), time_dim: int = 32) -> None:
        super().__init__()
        self.time_dim = time_dim
        self.time_mlp = nn.Sequential(nn.Linear(time_dim, time_dim), nn.SiLU(), nn.Linear(time_dim, time_dim))
        self.stem = nn.Conv2d(3, base, 3, padding=1)
        widths = [base * m for m in mults]
        self.downs = nn.ModuleList()
        ch = base
        for w in widths:
            self.downs.append(ResBlock(ch, w, time_dim))
            ch = w
        self.mid = ResBlock(ch, ch, time_dim)
        self.ups = nn.ModuleList()
        for w in reversed(widths):
            self.ups.append(ResBlock(ch + w, w, time_dim))
            ch = w
        self.out = nn.Conv2d(ch, 3, 3, padding=1)

    def time_embedding(self, t: Tensor[B]) -> Tensor[B, Any]:
        half = self.time_dim // 2
        freqs = torch.exp(-torch.arange(half) * (9.21 / half))
        args = t[:, None].float() * freqs[None, :]
        return self.time_mlp(torch.cat([args.sin(), args.cos()], dim=-1))

    def forward(self, x: Tensor[B, 3, H, W], t: Tensor[B]) -> Tensor[B, 3, H, W]:
        temb = self.time_embedding(t)
        h = self.stem(x)
        skips: list[Tensor] = []
        for i, block in enumerate(self.downs):
            h = block(h, temb)
            skips.append(h)
            if i < len(self.downs) - 1:
                h = F.avg_pool2d(h, 2)
        h = self.mid(h, temb)
        for i, block in enumerate(self.ups):
            skip = skips.pop()
            if h.shape[-1] != skip.shape[-1]:
                h = F.interpolate(h, scale_factor=2, mode="nearest")
            h = block(torch.cat([h, skip], dim=1), temb)
        return self.out(h)


def demo() -> None:
    model = UNet(base=4, num_classes=2)
    x = torch.randn(2, 3, 16, 24)
    out = model(x)
    assert out.shape == (2, 2, 16, 24)
    F.cross_entropy(out, torch.randint(0, 2, (2, 16, 24))).backward()
    diffusion = DiffusionUNet()
    noise_pred = diffusion(torch.randn(2, 3, 16, 16), torch.randint(0, 1000, (2,)))
    assert noise_pred.shape == (2, 3, 16, 16)
