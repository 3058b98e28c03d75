"""Modules of other sizes assigned where code first put one of one size: no error, as without tyr.

The first assignment gives the attribute (or list) a type with sizes in it
(`Conv2d[3, 32, 7, 1, 3, 1, 1]`); torch's `Conv2d` takes any convolution after it,
and so does tyr.
"""

from collections import OrderedDict

from torch import nn


class Stem(nn.Module):
    def __init__(self, channels: int, dim: int, patch: int, deep: bool) -> None:
        super().__init__()
        self.conv = nn.Conv2d(channels, dim, 7, padding=3)
        if patch > 1:
            self.conv = nn.Conv2d(channels, dim, patch, stride=patch)
        if deep:
            self.proj = nn.Sequential(nn.Conv2d(dim, dim, 3, stride=2), nn.BatchNorm2d(dim), nn.ReLU())
        else:
            self.proj = nn.Sequential(nn.Conv2d(dim, dim, 2, stride=2), nn.BatchNorm2d(dim))
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(3)])
        self.head = nn.Linear(dim, 10)

    def prune(self, keep: int) -> None:
        self.norms = nn.ModuleList([*self.norms[:keep], nn.Identity()])
        self.head = nn.Linear(self.head.in_features, 2)


def stages(dims: list[int], named: bool) -> nn.Sequential:
    blocks = [nn.Sequential(nn.Linear(4, 8), nn.GELU())]
    for d in dims:
        layers = [nn.Linear(d, d) for _ in range(2)]
        if named:
            blocks.append(nn.Sequential(OrderedDict([("fc", layers[0])])))
        else:
            blocks.append(nn.Sequential(*layers))
    return nn.Sequential(*blocks)


class Shortcut(nn.Module):
    def __init__(self, cin: int, cout: int) -> None:
        super().__init__()
        if cin == cout:
            self.shortcut = nn.Sequential()
        else:
            self.shortcut = nn.Sequential(nn.Conv2d(cin, cout, 1), nn.BatchNorm2d(cout))
