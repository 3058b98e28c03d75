"""Lists and loops of unannotated code, where tyr's types say more than torch's: a list literal's
first tensor, a loop's index bound by two loops over module lists of other classes, einops over a
list in a list's place, module lists inside module lists.  Plain mypy's errors stay where they are.

Found on NVlabs/edm (`labels += [w]`), openai/guided-diffusion (`for module in ...` twice),
lucidrains/meshgpt-pytorch (`xs = rearrange(xs, ...)`) and state-spaces/s4 (sashimi's `step`).
"""

import torch
from einops import rearrange
from torch import nn


def augment(images):
    n = images.shape[0]
    labels = [torch.zeros([images.shape[0], 0])]
    w = torch.randint(2, [n, 1, 1, 1])
    labels += [w]
    labels += [torch.zeros(3)]
    return torch.cat([x.flatten(1) for x in labels], dim=1)


def transposed(xs: list[torch.Tensor]):
    xs = rearrange(xs, "b e -> e b")
    return xs


class Block(nn.Sequential):
    pass


class Up(nn.Module):
    def forward(self, x):
        return x


class UNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.input_blocks = nn.ModuleList([Block(nn.Linear(4, 4))])
        self.output_blocks = nn.ModuleList([])
        self.output_blocks.append(Block(nn.Linear(4, 4)))
        self.ups = nn.ModuleList([Up(), Up()])

    def forward(self, h):
        for module in self.input_blocks:
            h = module(h)
        for module in self.output_blocks:
            h = module(h)
        for module in self.ups:
            h = module(h)
        return h


class Sashimi(nn.Module):
    def __init__(self):
        super().__init__()
        u_layers = []
        for _ in range(2):
            block = [nn.Linear(4, 4)]
            u_layers.append(nn.ModuleList(block))
        self.u_layers = nn.ModuleList(u_layers)

    def step(self, x):
        for block in self.u_layers:
            for layer in block:
                x = layer.step(x)
        return x
