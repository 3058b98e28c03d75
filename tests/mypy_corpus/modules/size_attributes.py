"""A torch module's size attributes (`in_features`, `out_channels`, `num_heads`, ...) hold the sizes
its type carries: a LoRA factor built from `base.in_features` has the base layer's width, and
multiplying the factors the wrong way round is caught.  A size the type does not know is an `int`."""

from typing import TypeVar, reveal_type

import torch
from torch import nn

from tyr import Dim

In = TypeVar("In")
Out = TypeVar("Out")
R = TypeVar("R")


def lora_delta(base: nn.Linear[In, Out], r: Dim[R]) -> None:
    reveal_type(base.in_features)  # N: Revealed type is "tyr._static.Dim[In]"
    down = torch.zeros(r, base.in_features)
    up = torch.zeros(base.out_features, r)
    reveal_type(up @ down)  # N: Revealed type is "torch._tensor.Tensor[Out, In]"
    down @ up  # E: @: dimension 1 of the left operand (In) does not match dimension 0 of the right operand (Out)


class Backbone(nn.Module):
    def __init__(self, width: int) -> None:
        super().__init__()
        self.conv = nn.Conv2d(3, 64, 7, stride=2, padding=3)
        self.norm = nn.GroupNorm(8, 64)
        self.attn = nn.MultiheadAttention(64, 4, batch_first=True)
        self.emb = nn.Embedding(1000, 64)
        self.fc = nn.Linear(64, 512)
        self.free = nn.Linear(width, width)
        # the fields torch types `int`, read as the sizes they are
        reveal_type((self.conv.in_channels, self.conv.out_channels, self.conv.groups))  # N: Revealed type is "tuple[Literal[3], Literal[64], Literal[1]]"
        reveal_type((self.norm.num_groups, self.norm.num_channels))  # N: Revealed type is "tuple[Literal[8], Literal[64]]"
        reveal_type((self.attn.embed_dim, self.attn.num_heads, self.attn.kdim))  # N: Revealed type is "tuple[Literal[64], Literal[4], Literal[64]]"
        reveal_type((self.emb.num_embeddings, self.emb.embedding_dim))  # N: Revealed type is "tuple[Literal[1000], Literal[64]]"
        reveal_type(self.free.in_features)  # N: Revealed type is "int"
        self.head = nn.Linear(self.fc.out_features, 10)
        reveal_type(self.head)  # N: Revealed type is "torch.nn.modules.linear.Linear[Literal[512], Literal[10]]"
        width = self.fc.in_features
        width = width * 2  # a local assigned again is an `int` as torch says, read as each value
        reveal_type(width)  # N: Revealed type is "Literal[128]"

    def reset_head(self, classes: int) -> None:
        self.head = nn.Linear(self.fc.out_features, classes)
