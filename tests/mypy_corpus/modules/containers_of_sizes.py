"""SHAPES.md §6: containers of modules (and tensors) of different sizes are ordinary code.

Element types join class by class to unknown sizes, never to `object`; calling an element, or
adding one of other sizes, is never an error; a container mypy typed by its first elements is
retyped when others join it, so an element read back never has the first one's sizes; an
`nn.Sequential` whose layers change has layers of unknown sizes from then on.
"""

from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
D = TypeVar("D")


class Block(nn.Module, Generic[D]):
    def __init__(self, d: Dim[D]) -> None:
        super().__init__()
        self.fc = nn.Linear(d, d)

    def forward(self, x: Tensor[B, D]) -> Tensor[B, D]:
        return self.fc(x)


class Tower(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(16, 32), nn.Linear(32, 8)])
        reveal_type(self.layers)  # N: Revealed type is "torch.nn.modules.container.ModuleList[torch.nn.modules.linear.Linear[Any, Any]]"
        self.head = nn.Sequential()
        self.head.append(nn.Linear(8, 4))
        self.head.add_module("act", nn.ReLU())

    def forward(self, x: Tensor[B, 16]) -> Tensor[B, 4]:
        for layer in self.layers:
            x = layer(x)
        reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
        out: Tensor[B, 4] = self.head(x)  # the grown Sequential is no identity: its result is unknown
        return out


def grown_lists(x: Tensor[B, 4]) -> None:
    blocks = []
    blocks.append(nn.Linear(4, 8))
    blocks.append(nn.Linear(8, 2))  # another size: no error
    reveal_type(blocks)  # N: Revealed type is "list[torch.nn.modules.linear.Linear[Any, Any]]"
    for b in blocks:
        x = b(x)
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, Any]"
    stack = nn.ModuleList([Block(4)])
    stack.append(Block(8))
    reveal_type(stack)  # N: Revealed type is "torch.nn.modules.container.ModuleList[tests.mypy_corpus.modules.containers_of_sizes.Block[Any]]"
    outs = [torch.zeros(3)]
    outs.append(torch.zeros(4))
    reveal_type(outs[1])  # N: Revealed type is "torch._tensor.Tensor[Any]"
    more = [torch.zeros(3)]
    more += [torch.zeros(5)]
    reveal_type(more)  # N: Revealed type is "list[torch._tensor.Tensor[Any]]"
    same = [torch.zeros(3)]
    same.append(torch.zeros(3))
    reveal_type(same)  # N: Revealed type is "list[torch._tensor.Tensor[Literal[3]]]"
    by_name = {"in": nn.Linear(4, 8)}
    by_name["out"] = nn.Linear(8, 8)
    reveal_type(by_name)  # N: Revealed type is "dict[str, torch.nn.modules.linear.Linear[Any, Literal[8]]]"


def grown_sequential(x: Tensor[B, 4]) -> None:
    net = nn.Sequential(nn.Linear(4, 8))
    reveal_type(net(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    net.add_module("out", nn.Linear(8, 2))
    reveal_type(net)  # N: Revealed type is "torch.nn.modules.container.Sequential[*tuple[Any, ...]]"
    reveal_type(net(x))  # N: Revealed type is "Any"
    empty = nn.Sequential()
    reveal_type(empty(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]]"
    empty.append(nn.Linear(4, 2))
    reveal_type(empty(x))  # N: Revealed type is "Any"


def grown_sometimes(x: Tensor[B, 4], flag: bool) -> None:
    blocks = [nn.Linear(4, 4)]
    if flag:
        blocks.append(nn.Linear(4, 2))
    for b in blocks:  # after the branch the list is no longer a list of Linear[4, 4]
        x = b(x)
    reveal_type(blocks)  # N: Revealed type is "list[torch.nn.modules.linear.Linear[Literal[4], Any]]"


def displays(x: Tensor[B, 4]) -> None:
    """A list, dict or tuple display of modules of one class and other sizes: mypy joins them to the
    class with the sizes that differ unknown (the stubs' size variables are covariant), not to
    `object`, which could not be called."""
    layers = [nn.Linear(4, 8), nn.Linear(8, 8)]
    reveal_type(layers)  # N: Revealed type is "list[torch.nn.modules.linear.Linear[int, Literal[8]]]"
    for layer in layers:
        reveal_type(layer(x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[8]]"
    mlp = nn.Sequential(*layers)
    heads = {"a": nn.Linear(4, 2), "b": nn.Linear(8, 2)}
    reveal_type(heads["a"](x))  # N: Revealed type is "torch._tensor.Tensor[B, Literal[2]]"
    for conv in (nn.Conv1d(4, 8, 3, padding=1), nn.Conv1d(4, 8, 5, padding=2)):
        conv(x.unsqueeze(-1))
    print(mlp)
