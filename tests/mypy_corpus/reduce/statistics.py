"""`histc` is 1-d of `bins`; `cov` / `corrcoef` of `(V, O)` are `(V, V)`, squeezed (one variable is 0-d, so a
symbolic `V` that may be 1 gives an unknown shape); `isin` has the shape of `elements`; `pdist` of `(N, M)` has
`N*(N - 1)/2` elements (known for a literal `N`); `unravel_index` gives one tensor of the indices' shape per dim."""

from typing import TypeVar, reveal_type

import torch
import torch.nn.functional as F

from tyr import Dim, Tensor

B = TypeVar("B")
T = TypeVar("T")


def statistics(x: Tensor[B, T], v: Tensor[T], img: Tensor[3, 100], bins: Dim[T]) -> None:
    reveal_type(torch.histc(x, bins=10))  # N: Revealed type is "torch._tensor.Tensor[Literal[10]]"
    reveal_type(v.histc(bins))  # N: Revealed type is "torch._tensor.Tensor[T]"
    reveal_type(torch.cov(img))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[3]]"
    reveal_type(img.corrcoef())  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[3]]"
    reveal_type(torch.cov(v))  # N: Revealed type is "torch._tensor.Tensor[()]"
    reveal_type(torch.cov(img, fweights=torch.ones(100, dtype=torch.long)))  # N: Revealed type is "torch._tensor.Tensor[Literal[3], Literal[3]]"
    reveal_type(x.cov())  # N: Revealed type is "torch._tensor.Tensor[*tuple[Any, ...]]"
    reveal_type(torch.isin(x, v))  # N: Revealed type is "torch._tensor.Tensor[B, T]"
    reveal_type(torch.isin(2, v))  # N: Revealed type is "torch._tensor.Tensor[()]"
    torch.histc(x, bins=0)  # E: histc: bins must be positive, got 0  [tyr-shape]
    torch.cov(img, aweights=v)  # E: cov: aweights (T,) must hold one weight per observation, 100 (the last dim of the input (3, 100))  [tyr-shape]
    torch.corrcoef(x[None])  # E: corrcoef: the input must have at most 2 dims, not (1, B, T)  [tyr-shape]


def distances(points: Tensor[5, 3], x: Tensor[B, T], flat: Tensor[B]) -> None:
    reveal_type(torch.pdist(points))  # N: Revealed type is "torch._tensor.Tensor[Literal[10]]"
    reveal_type(F.pdist(x))  # N: Revealed type is "torch._tensor.Tensor[Any]"
    reveal_type(torch.unravel_index(flat.long(), (4, 8)))  # N: Revealed type is "tuple[torch._tensor.Tensor[B], torch._tensor.Tensor[B]]"
    reveal_type(torch.unravel_index(flat.long(), 32))  # N: Revealed type is "tuple[torch._tensor.Tensor[B]]"
    F.pdist(flat)  # E: pdist: the input must be 2-d, not (B,)  [tyr-shape]
    torch.unravel_index(flat.long(), (4, 0))  # E: unravel_index: the shape [4, 0] has no elements to index with (B,)  [tyr-shape]
