"""functools.partial of a user's callee with `Dim` parameters: checked as the direct call.

A plain `int` where a `Dim` is wanted loses tracking (no error), through a partial as in
`Block(64)`; sizes the arguments know are bound as in the direct call.  (lucidrains'
`block_klass = partial(ResnetBlock, groups=8)`, then `block_klass(dim_in, dim_out)`.)
"""

from functools import partial
from typing import Generic, TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim, Tensor

B = TypeVar("B")
C = TypeVar("C")
D = TypeVar("D")
O = TypeVar("O")


class Block(nn.Module, Generic[C, O]):
    def __init__(self, c: Dim[C], o: Dim[O], groups: int = 8) -> None:
        super().__init__()
        self.conv = nn.Conv2d(c, o, 3, padding=1, groups=groups)


def emb(t: Tensor[B], dim: Dim[D]) -> Tensor[B, D]:
    return torch.zeros(t.shape[0], dim)


block_klass = partial(Block, groups=1)
reveal_type(block_klass(3, 5))  # N: Revealed type is "tests.mypy_corpus.calls.partial_dim.Block[Literal[3], Literal[5]]"


def build(c: int, o: int) -> None:
    blk = block_klass(c, o)
    reveal_type(blk)  # N: Revealed type is "tests.mypy_corpus.calls.partial_dim.Block[Any, Any]"


e = partial(emb, dim=8)
reveal_type(e(torch.zeros(3)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[8]]"
first = partial(emb, torch.zeros(2))
reveal_type(first(4))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[4]]"
reveal_type(partial(nn.LayerNorm, eps=1e-6)(64))  # N: Revealed type is "torch.nn.modules.normalization.LayerNorm[Literal[64]]"

# a shape error is the direct call's
x: Tensor[2, 4] = torch.zeros(2, 4)
bad = partial(emb, dim=8)(torch.zeros(3))
z = bad + x  # E: does not broadcast
