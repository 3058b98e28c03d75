"""`pack` the cls token with the patch tokens, `unpack` them after the transformer (as x-transformers does)."""

from typing import TypeVar, reveal_type

from einops import pack, unpack
from torch import nn

from tyr import Tensor

B = TypeVar("B")
N = TypeVar("N")


block = nn.Linear(512, 256)


def with_cls(cls: Tensor[B, 512], patches: Tensor[B, N, 512]) -> Tensor[B, N, 256]:
    x, ps = pack([cls, patches], "b * d")
    reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['N + 1'], N], Literal[512]]"
    x = block(x)
    cls_out, patches_out = unpack(x, ps, "b * d")
    reveal_type(cls_out)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[256]]"
    return patches_out


def literal_shapes(x: Tensor[B, "N+1", 512]) -> None:
    first, rest = unpack(x, [(1,), (-1,)], "b * d")
    reveal_type(rest)  # N: Revealed type is "torch._tensor.Tensor[B, N, Literal[512]]"
    pieces = unpack(x, [(1,), (-1,)], "b * d")
    pieces.append(first)  # the result is a list
    for piece in pieces:
        reveal_type(piece)  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"


def packed_shapes_that_may_differ(cls: Tensor[B, 512], patches: Tensor[B, N, 512], flip: bool) -> None:
    """`ps` is read through its one definition, `x, ps = pack(...)`; with two, or another use, it is unknown."""
    if flip:
        x, ps = pack([patches, cls], "b * d")
    else:
        x, ps = pack([cls, patches], "b * d")
    reveal_type(unpack(x, ps, "b * d"))  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"
    y, ps2 = pack([cls, patches], "b * d")
    ps2.reverse()
    reveal_type(unpack(y, ps2, "b * d"))  # N: Revealed type is "list[torch._tensor.Tensor[*tuple[Any, ...]]]"
    z, ps3 = pack([cls, cls], "b * d")
    same = unpack(z, ps3, "b * d")  # a list the code could change: one shape for all, as the pieces share it
    reveal_type(same)  # N: Revealed type is "list[torch._tensor.Tensor[B, Literal[512]]]"
