"""Type aliases of shaped tensors: `Hidden = Tensor[B, T, 768]`."""

from typing import Optional, TypeVar, reveal_type

import torch

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")

Hidden = Tensor[B, T, 768]
Logits = Tensor[B, T, 65]


def head(h: Hidden[B, T], w: Tensor[65, 768]) -> Logits[B, T]:
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[B, T, Literal[768]]"
    return h @ w.T


x = head(torch.randn(2, 5, 768), torch.randn(65, 768))
reveal_type(x)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[5], Literal[65]]"


# Used bare, a generic alias has unknown sizes, as mypy reads any generic alias (red team 10).
def residual(h: Hidden) -> Hidden:
    reveal_type(h)  # N: Revealed type is "torch._tensor.Tensor[Any, Any, Literal[768]]"
    return h + 1


# An alias of a tuple of shaped tensors (an RNN state) binds its type variables as mypy does.
State = tuple[Tensor[B, T], Tensor[B, T]]


def step(x: Tensor[B, T], s: State[B, T]) -> State[B, T]:
    h, c = s
    reveal_type(c)  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    return h + x, c


y, _ = step(torch.randn(2, 3), (torch.zeros(2, 3), torch.zeros(2, 3)))
reveal_type(y)  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"


# A type variable that only a size string names is a parameter too, after the bare ones, as at
# runtime (red team 10: mypy collects an alias's parameters from bare names only).
D = TypeVar("D")
H = TypeVar("H")
Half = Tensor[B, "D//2"]
Heads = Tensor[B, "D//H", H]
Pair = tuple[Tensor[B, "D//2"], Tensor[B, D]]


def first_half(x: Tensor[B, D]) -> Half[B, D]:
    return x[:, : x.shape[1] // 2]


def split_heads(x: Tensor[B, D], h: Dim[H]) -> Heads[B, H, D]:
    return x.view(x.shape[0], x.shape[1] // h, h)


def halves(x: Tensor[B, D]) -> Pair[B, D]:
    return x[:, : x.shape[1] // 2], x


def wrong_half(x: Tensor[B, D]) -> Half[B, D]:
    return x  # E: Incompatible return value type


reveal_type(first_half(torch.randn(2, 6)))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
reveal_type(split_heads(torch.randn(2, 6), 3))  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[2], Literal[3]]"
reveal_type(halves(torch.randn(2, 6))[0])  # N: Revealed type is "torch._tensor.Tensor[Literal[2], Literal[3]]"
bad: Half[2]  # E: Type alias "Half" expects 2 sizes, 1 given


# An alias of a Dim, as a config module writes one (red team 10: `Dim[768]` was an invalid type).
Width = Dim[768]
NHeads = Dim["2*4"]
Size = Dim[D]


def widths(w: Width, h: NHeads, d: Size[D]) -> Tensor[768, 8, D]:
    reveal_type(w)  # N: Revealed type is "Literal[768]"
    return torch.zeros(w, h, d)


reveal_type(widths(768, 8, 5))  # N: Revealed type is "torch._tensor.Tensor[Literal[768], Literal[8], Literal[5]]"


# An alias of something holding a tensor takes sizes too (red team 11: a KV cache `Optional[KV[...]]`).
KV = tuple[Tensor[B, T], Tensor[B, T]]
MaybeHidden = Optional[Tensor[B, T]]


def cache(kv: KV[B, "T+1"], o: MaybeHidden[B, 4]) -> None:
    reveal_type(kv[0])  # N: Revealed type is "torch._tensor.Tensor[B, tyr._static.DimExpr[Literal['T + 1'], T]]"
    reveal_type(o)  # N: Revealed type is "torch._tensor.Tensor[B, Literal[4]] | None"
