"""A loop's index that a second loop (or an assignment) binds again, over items of other shapes or
other module classes: torch's types give `Tensor` or `Module` for each, so neither loop is an
error, and each loop reads its own items (mypy's defaults declare the index by its first loop)."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Tensor

B = TypeVar("B")


def two_lists(x: Tensor[B, 4], y: Tensor[B, 8]) -> None:
    small = [x, x]
    wide = [y]
    for t in small:
        reveal_type(t)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    for t in wide:
        reveal_type(t)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    for i, u in enumerate(small):
        reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    for i, u in enumerate(wide):
        reveal_type(u)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"


def assigned_then_looped(x: Tensor[B, 4], y: Tensor[B, 8]) -> None:
    z = x
    for z in [y, y]:
        reveal_type(z)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"


class Encoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: Tensor[B, 4]) -> Tensor[B, 4]:
        return self.proj(x)


class Decoder(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.proj = nn.Linear(4, 4)

    def forward(self, x: Tensor[B, 4]) -> Tensor[B, 4]:
        return self.proj(x)


class Stack(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.encoders = nn.ModuleList([Encoder(), Encoder()])
        self.decoders = nn.ModuleList([Decoder()])
        self.extra = nn.ModuleList([])
        self.extra.append(Decoder())

    def forward(self, h: Tensor[B, 4]) -> Tensor[B, 4]:
        for layer in self.encoders:
            h = layer(h)
        for layer in self.decoders:
            h = layer(h)
        reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
        for layer in self.extra:  # torch's `Module`, called: `Any`
            h = layer(h)
        return h


def grows(x: Tensor[B, 4]) -> torch.Tensor:
    outs = [torch.zeros(3, 0)]
    outs += [x]
    outs.extend([x.unsqueeze(0)])
    reveal_type(outs)  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"
    return outs[0]


class UNet(nn.Module):
    """Loops over lists of sized torch modules, through `enumerate` and `zip`, and locals assigned
    modules of other sizes: torch types each `Linear` alike, so none is an error, and each read
    gives the sizes last assigned."""

    def __init__(self) -> None:
        super().__init__()
        self.down = nn.ModuleList([nn.Linear(4, 8)])
        self.up = nn.ModuleList([nn.Linear(8, 4)])
        self.norms = nn.ModuleList([nn.LayerNorm(4)])

    def forward(self, x: Tensor[B, 4]) -> Tensor[B, 4]:
        for i, block in enumerate(self.down):
            reveal_type(block)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[4], Literal[8]]"
        for i, block in enumerate(self.up):
            reveal_type(block)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[8], Literal[4]]"
        for block, norm in zip(reversed(self.up), self.norms):
            reveal_type(block)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[8], Literal[4]]"
        first = self.down[0]
        wide = first(x)
        first = self.up[0]
        reveal_type(first(wide))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
        proj = nn.Linear(4, 8)
        wider = proj(x)
        proj = nn.Linear(8, 4)
        return proj(wider)


def shapes_assigned_again(x: Tensor[B, 4], y: Tensor[B, 8]) -> None:
    """A shape assigned again is a `torch.Size`, read as the sizes last assigned; a display of
    tensors assigned again holds tensors of unknown shape, as torch types them."""
    size = x.shape
    reveal_type(size)  # N: Revealed type is "tuple[tyr._static.Dim[B], Literal[4], fallback=torch._C.Size]"
    size = y.shape
    reveal_type(torch.zeros(size))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    rows = [torch.zeros(3)]
    rows = [torch.zeros(4)]
    reveal_type(rows)  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"
