"""MobileNetV2 / EfficientNet-style network: inverted residual (MBConv) blocks with an expansion
ratio, depthwise 3x3 convs, squeeze-and-excitation, stochastic depth, and a classifier head.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

import torch
import torch.nn.functional as F
from torch import nn

from tyr import Dim, Tensor, checked

B = TypeVar("B")
C = TypeVar("C")
H = TypeVar("H")
W = TypeVar("W")
I = TypeVar("I")  # noqa: E741
O = TypeVar("O")  # noqa: E741
E = TypeVar("E")
R = TypeVar("R")
K = TypeVar("K")
S = TypeVar("S")


@dataclass(frozen=True)
class Config:
    stem: int = 16
    # (expand_ratio, channels, repeats, stride)
    stages: tuple[tuple[int, int, int, int], ...] = ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 2, 2))
    head: int = 64
    num_classes: int = 10
    drop_path: float = 0.2
    dropout: float = 0.2


def drop_path(x: Tensor[B, C, H, W], drop_prob: float = 0.0, training: bool = False) -> Tensor[B, C, H, W]:
    if drop_prob == 0.0 or not training:
        return x
    keep_prob = 1 - drop_prob
    shape = (x.shape[0],) + (1,) * (x.ndim - 1)  # (B, 1, 1, 1)
    random_tensor = x.new_empty(shape).bernoulli_(keep_prob)
    if keep_prob > 0.0:
        random_tensor.div_(keep_prob)
    return x * random_tensor


def drop_path_4d(x: Tensor[B, C, H, W], p: float, training: bool) -> Tensor[B, C, H, W]:
    """The same, written with an explicit (B, 1, 1, 1) mask."""
    if p == 0.0 or not training:
        return x
    mask = x.new_empty(x.shape[0], 1, 1, 1).bernoulli_(1 - p)
    return x.div(1 - p) * mask


@checked
class SqueezeExcite(nn.Module, Generic[C, R]):
    def __init__(self, channels: Dim[C], reduced: Dim[R]) -> None:
        super().__init__()
        self.fc1 = nn.Conv2d(channels, reduced, 1)
        self.fc2 = nn.Conv2d(reduced, channels, 1)

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, C, H, W]:
        s = F.adaptive_avg_pool2d(x, 1)
        s = self.fc2(F.silu(self.fc1(s)))
        return x * torch.sigmoid(s)


@checked
class SqueezeExciteLinear(nn.Module, Generic[C]):
    """The SENet way: pool, view(b, c), two Linears, gate view(b, c, 1, 1)."""

    def __init__(self, channels: Dim[C], reduction: int = 4) -> None:
        super().__init__()
        self.avg_pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Sequential(
            nn.Linear(channels, channels // reduction, bias=False),
            nn.ReLU(inplace=True),
            nn.Linear(channels // reduction, channels, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, C, H, W]:
        b, c, _, _ = x.size()
        y = self.avg_pool(x)
        y = y.view(b, c)
        y = self.fc(y)
        return x * y.view(b, c, 1, 1).expand_as(x)


@checked
class MBConv(nn.Module, Generic[I, O, E, S]):
    def __init__(self, in_ch: Dim[I], out_ch: Dim[O], expand_ratio: Dim[E], stride: Dim[S],
                 drop_path: float = 0.0) -> None:
        super().__init__()
        hidden = in_ch * expand_ratio
        self.use_res = stride == 1 and in_ch == out_ch
        self.drop_path = drop_path
        self.expand = nn.Sequential(
            nn.Conv2d(in_ch, hidden, 1, bias=False),
            nn.BatchNorm2d(hidden),
            nn.SiLU(inplace=True),
        )
        self.dw = nn.Sequential(
            nn.Conv2d(hidden, hidden, 3, stride=stride, padding=1, groups=hidden, bias=False),
            nn.BatchNorm2d(hidden),
            nn.SiLU(inplace=True),
        )
        self.se = SqueezeExcite(hidden, max(1, in_ch // 4))
        self.project = nn.Sequential(
            nn.Conv2d(hidden, out_ch, 1, bias=False),
            nn.BatchNorm2d(out_ch),
        )

    def forward(self, x: Tensor[B, I, H, W]) -> Tensor[B, O, "H//S", "W//S"]:
        out = self.expand(x)
        out = self.dw(out)
        out = self.se(out)
        out = self.project(out)
        if self.use_res:
            out = drop_path(out, self.drop_path, self.training) + x
        return out


@checked
class DepthwiseBlock(nn.Module, Generic[C]):
    """A stride-1 MBConv with the convs as attributes and F.* calls (EfficientNet-lite style)."""

    def __init__(self, ch: Dim[C], expand_ratio: int, p: float) -> None:
        super().__init__()
        hidden = ch * expand_ratio
        self.conv_pw = nn.Conv2d(ch, hidden, kernel_size=1, bias=False)
        self.bn1 = nn.BatchNorm2d(hidden)
        self.conv_dw = nn.Conv2d(hidden, hidden, kernel_size=3, padding=1, groups=hidden, bias=False)
        self.bn2 = nn.BatchNorm2d(hidden)
        self.se = SqueezeExciteLinear(hidden, 4)
        self.conv_pwl = nn.Conv2d(hidden, ch, kernel_size=1, bias=False)
        self.bn3 = nn.BatchNorm2d(ch)
        self.p = p

    def forward(self, x: Tensor[B, C, H, W]) -> Tensor[B, C, H, W]:
        shortcut = x
        x = F.relu6(self.bn1(self.conv_pw(x)))
        x = F.relu6(self.bn2(self.conv_dw(x)))
        x = self.se(x)
        x = self.bn3(self.conv_pwl(x))
        return shortcut + drop_path_4d(x, self.p, self.training)


class EfficientNet(nn.Module):
    def __init__(self, cfg: Config) -> None:
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, cfg.stem, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(cfg.stem),
            nn.SiLU(inplace=True),
        )
        blocks: list[nn.Module] = []
        in_ch = cfg.stem
        total = sum(s[2] for s in cfg.stages)
        idx = 0
        for expand, ch, reps, stride in cfg.stages:
            for r in range(reps):
                dp = cfg.drop_path * idx / total
                blocks.append(MBConv(in_ch, ch, expand, stride if r == 0 else 1, dp))
                in_ch = ch
                idx += 1
        self.blocks = nn.Sequential(*blocks)
        self.extra = DepthwiseBlock(in_ch, 4, cfg.drop_path)
        self.head_conv = nn.Sequential(
            nn.Conv2d(in_ch, cfg.head, 1, bias=False),
            nn.BatchNorm2d(cfg.head),
            nn.SiLU(inplace=True),
        )
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.dropout = nn.Dropout(cfg.dropout)
        self.classifier = nn.Linear(cfg.head, cfg.num_classes)

    def forward(self, x: Tensor[B, 3, H, W]) -> Tensor[B, K]:
        x = self.stem(x)
        x = self.blocks(x)
        x = self.extra(x)
        x = self.head_conv(x)
        x = self.pool(x)
        x = torch.flatten(x, 1)
        x = self.dropout(x)
        return self.classifier(x)


@checked
class TinyNet(nn.Module, Generic[K]):
    """A fixed-width net so the checker can follow concrete sizes end to end."""

    def __init__(self, num_classes: Dim[K]) -> None:
        super().__init__()
        self.stem = nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False)
        self.bn = nn.BatchNorm2d(16)
        self.b1 = MBConv(16, 16, 1, 1, 0.1)
        self.b2 = MBConv(16, 24, 6, 2, 0.1)
        self.b3 = DepthwiseBlock(24, 6, 0.1)
        self.head = nn.Conv2d(24, 48, 1)
        self.fc = nn.Linear(48, num_classes)

    def forward(self, x: Tensor[B, 3, 32, 32]) -> Tensor[B, K]:
        x = F.silu(self.bn(self.stem(x)))
        x = self.b1(x)
        x = self.b2(x)
        x = self.b3(x)
        x = F.silu(self.head(x))
        x = F.adaptive_avg_pool2d(x, (1, 1))
        x = x.flatten(1)
        x = F.dropout(x, 0.2, self.training)
        return self.fc(x)


def demo() -> None:
    torch.manual_seed(0)
    cfg = Config()
    model = EfficientNet(cfg)
    model.train()
    x = torch.randn(2, 3, 32, 32)
    logits = model(x)
    assert logits.shape == (2, cfg.num_classes)
    F.cross_entropy(logits, torch.tensor([1, 2])).backward()

    se = SqueezeExcite(8, 2)
    print("se", se(torch.randn(2, 8, 5, 7)).shape)
    sel = SqueezeExciteLinear(8, 4)
    print("sel", sel(torch.randn(2, 8, 5, 7)).shape)
    blk = MBConv(8, 16, 6, 2, 0.1)
    print("mb", blk(torch.randn(2, 8, 8, 8)).shape)
    dwb = DepthwiseBlock(8, 4, 0.3)
    dwb.train()
    print("dwb", dwb(torch.randn(2, 8, 6, 6)).shape)
    print("dp", drop_path(torch.randn(4, 3, 2, 2), 0.5, True).shape)

    tiny = TinyNet(10)
    tiny.train()
    out = tiny(torch.randn(2, 3, 32, 32))
    print("tiny", out.shape)
    assert out.shape == (2, 10)


if __name__ == "__main__":
    demo()
